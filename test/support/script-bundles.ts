import { build } from 'esbuild';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BUNDLING } from '../../infra/bundling';
import { ROOT } from '../../infra/bundles';

/** The programs the end-to-end files run as processes, many times per run: `npm start`'s, the operator CLI's and `npm run sam-env`'s. */
export const BUNDLED_SCRIPTS = ['start', 'admin', 'sam-env'] as const;
export type BundledScript = (typeof BUNDLED_SCRIPTS)[number];

/**
 * Bundles scripts/start.ts, scripts/admin.ts and scripts/sam-env.ts once per test run:
 * through tsx every stack start and every CLI call would load and transform their sources
 * again. A bundle is the same source (esbuild, as tsx transforms it), in one build whose
 * chunks the scripts share. It lives below the repository so that what it loads at run time
 * (dynalite, esbuild) resolves from node_modules, in a folder of its own per run so that
 * runs never share one; and its `import.meta.url` is a file of scripts/, where both
 * sources are, so that what the scripts derive from their own place (ROOT: dist/,
 * cdk.out) is what it is when they run from source.
 */
export async function bundleScripts(): Promise<{ folder: string; remove: () => Promise<void> }> {
  await mkdir(join(ROOT, 'dist'), { recursive: true });
  const folder = await mkdtemp(join(ROOT, 'dist', '.test-scripts-'));
  await build({
    entryPoints: BUNDLED_SCRIPTS.map((script) => ({ in: scriptSource(script), out: script })),
    outdir: folder,
    outExtension: { '.js': '.mjs' },
    // What a script imports dynamically (a CLI command's modules, the stack's parts) becomes a
    // chunk of its own, loaded only when the script gets there, as tsx loads the sources.
    splitting: true,
    bundle: true,
    platform: BUNDLING.platform,
    format: BUNDLING.format,
    target: `node${process.versions.node.split('.')[0]}`,
    // The packages' ES module builds where they have one (the AWS SDK's): a chunk that imports a
    // CommonJS build dynamically would see only its default export.
    mainFields: BUNDLING.mainFields,
    banner: { js: BUNDLING.banner },
    define: { 'import.meta.url': JSON.stringify(pathToFileURL(scriptSource('start')).href) },
    // esbuild finds its platform's binary from its own package, and the CDK (a template-mode
    // start's synthesis, infra/assembly.ts) reads data files beside its modules: bundled, they
    // would look beside the bundle. Both load from node_modules, as they do from source.
    external: ['esbuild', 'aws-cdk-lib', 'cdk-nag', 'constructs'],
    logLevel: 'warning',
  });
  return { folder, remove: () => rm(folder, { recursive: true, force: true }) };
}

const scriptSource = (script: BundledScript) => join(ROOT, 'scripts', `${script}.ts`);
const bundledScriptPath = (folder: string, script: BundledScript) => join(folder, `${script}.mjs`);

/**
 * How a test starts `script`: the run's bundle (TEST_SCRIPT_BUNDLES, set by the worker
 * setup), else through tsx from source, as `npm start`, `npm run admin` and `npm run sam-env` do.
 */
export function scriptCommand(script: BundledScript): [string, string[]] {
  const folder = process.env.TEST_SCRIPT_BUNDLES;
  return folder ? [process.execPath, [bundledScriptPath(folder, script)]] : [process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', `${script}.ts`)]];
}
