import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUNDLING } from '../infra/bundling';
import { API_ROUTES, PORTAL_ROUTES, SUPPORT_FUNCTIONS } from '../shared/routes';

/** Repository root (scripts/ sits directly below it). */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const DIST = join(ROOT, 'dist', 'functions');

export interface BundleTarget {
  name: string;
  entry: string;
  /** Static files copied beside the bundle (name → repository path), as CDK's asset holds them. */
  staticFiles?: Readonly<Record<string, string>>;
}

/** Every Lambda the stack deploys: one per API route and portal route, plus the support functions. */
export function bundleTargets(): BundleTarget[] {
  return [...API_ROUTES, ...PORTAL_ROUTES, ...Object.values(SUPPORT_FUNCTIONS)].map(({ name, entry, ...row }) => ({
    name,
    entry,
    staticFiles: 'staticFiles' in row ? row.staticFiles : undefined,
  }));
}

/** Where a function's bundle lands: dist/functions/<Name>/index.mjs, as CDK's asset folder holds it. */
export const bundlePath = (name: string) => join(DIST, name, `index${BUNDLING.outExtension}`);

/**
 * Builds the Lambda bundles with exactly the options CDK's NodejsFunction uses
 * (infra/bundling.ts), so the local stack and the benchmark run what AWS runs.
 */
export async function buildBundles(targets = bundleTargets(), options: { metafile?: boolean } = {}) {
  // The test run builds once up front; the local stacks it starts then reuse those bundles.
  if (process.env.PREBUILT_BUNDLES === '1') return [];
  // Build into a private folder, then rename each file into place: a rename is atomic,
  // so a stack loading bundles while another process rebuilds never sees half a file.
  const staging = join(ROOT, 'dist', `.build-${process.pid}-${Date.now()}`);
  try {
    return await Promise.all(
      targets.map(async ({ name, entry, staticFiles = {} }) => {
        const outfile = join(staging, name, `index${BUNDLING.outExtension}`);
        const result = await build({
          entryPoints: [join(ROOT, entry)],
          outfile,
          bundle: true,
          platform: BUNDLING.platform,
          format: BUNDLING.format,
          target: BUNDLING.target,
          minify: BUNDLING.minify,
          sourcemap: BUNDLING.sourcemap,
          mainFields: BUNDLING.mainFields,
          external: BUNDLING.externalModules,
          banner: { js: BUNDLING.banner },
          define: BUNDLING.define,
          metafile: options.metafile,
          logLevel: 'warning',
        });
        for (const [file, path] of Object.entries(staticFiles)) await copyFile(join(ROOT, path), join(staging, name, file));
        await mkdir(join(DIST, name), { recursive: true });
        for (const file of await readdir(join(staging, name))) await rename(join(staging, name, file), join(DIST, name, file));
        return result;
      }),
    );
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** What the last complete build of these targets read, so an unchanged tree is not rebuilt (one file per fingerprint). */
export const buildStampPath = (targets: BundleTarget[]) => join(DIST, `.inputs-${fingerprint(targets).slice(0, 16)}.json`);

interface BuildStamp {
  fingerprint: string;
  /** When the build started (ms): an input modified since then makes the bundles stale. */
  startedAt: number;
  inputs: string[];
}

/** The options and targets the bundles were built with: a change to either rebuilds all of them. */
function fingerprint(targets: BundleTarget[]): string {
  return createHash('sha256').update(JSON.stringify({ BUNDLING, targets })).digest('hex');
}

/**
 * Builds the bundles unless the last build is still current: same options and targets,
 * every bundle present, and no file it read (esbuild's metafile: sources and the
 * node_modules they import, plus static files) modified or gone since it started.
 * The test run and `npm start` call this; `npm run build` always builds.
 */
export async function ensureBundles(targets = bundleTargets()): Promise<'built' | 'current'> {
  if (process.env.PREBUILT_BUNDLES === '1') return 'current';
  if (await bundlesCurrent(targets)) return 'current';
  const startedAt = Date.now();
  const results = await buildBundles(targets, { metafile: true });
  const inputs = new Set<string>();
  for (const result of results) for (const input of Object.keys(result.metafile?.inputs ?? {})) inputs.add(resolve(input));
  for (const { staticFiles = {} } of targets) for (const path of Object.values(staticFiles)) inputs.add(join(ROOT, path));
  const stamp: BuildStamp = { fingerprint: fingerprint(targets), startedAt, inputs: [...inputs] };
  await writeFile(buildStampPath(targets), JSON.stringify(stamp));
  return 'built';
}

async function bundlesCurrent(targets: BundleTarget[]): Promise<boolean> {
  let stamp: BuildStamp;
  try {
    stamp = JSON.parse(await readFile(buildStampPath(targets), 'utf8')) as BuildStamp;
  } catch {
    return false;
  }
  if (stamp.fingerprint !== fingerprint(targets)) return false;
  const modifiedAt = async (path: string) => (await stat(path).catch(() => undefined))?.mtimeMs ?? Infinity;
  const bundles = await Promise.all(
    targets.map(({ name }) =>
      stat(bundlePath(name)).then(
        () => true,
        () => false,
      ),
    ),
  );
  if (bundles.includes(false)) return false;
  const times = await Promise.all(stamp.inputs.map(modifiedAt));
  return times.every((time) => time < stamp.startedAt);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  await buildBundles();
  console.log(`Built ${bundleTargets().length} bundles into ${DIST} in ${Date.now() - started} ms`);
}
