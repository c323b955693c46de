import { build } from 'esbuild';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { BUNDLING } from '../../infra/bundling';
import { ROOT } from '../../scripts/build';

/**
 * The operator CLI (scripts/admin.ts), bundled once per test run: the end-to-end files run
 * it as a process many times, and through tsx each call would load and transform its
 * sources again. The bundle is the same source (esbuild, as tsx transforms it); it lives
 * below the repository so that what it requires at run time (dynalite) resolves from
 * node_modules, in a folder of its own per run so that runs never share one.
 */
export async function bundleAdminCli(): Promise<{ path: string; remove: () => Promise<void> }> {
  await mkdir(join(ROOT, 'dist'), { recursive: true });
  const folder = await mkdtemp(join(ROOT, 'dist', '.admin-cli-'));
  const path = join(folder, 'admin.mjs');
  await build({
    entryPoints: [join(ROOT, 'scripts', 'admin.ts')],
    outfile: path,
    bundle: true,
    platform: BUNDLING.platform,
    format: BUNDLING.format,
    target: `node${process.versions.node.split('.')[0]}`,
    banner: { js: BUNDLING.banner },
    logLevel: 'warning',
  });
  return { path, remove: () => rm(folder, { recursive: true, force: true }) };
}

/** How a test starts the operator CLI: the run's bundle (TEST_ADMIN_CLI, set by the worker setup), else `tsx scripts/admin.ts` as `npm run admin` does. */
export function adminCliCommand(): [string, string[]] {
  const bundle = process.env.TEST_ADMIN_CLI;
  return bundle ? [process.execPath, [bundle]] : [process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'admin.ts')]];
}
