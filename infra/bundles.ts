/**
 * The one build of every Lambda bundle, into dist/functions/<Name>/: `npm run build`
 * (scripts/build.ts), `npm start`, the test run, the benchmark and the CDK app (which
 * copies these files into the function assets, infra/function-code.ts) all use it.
 * Free of aws-cdk-lib, so the local stack loads it without the CDK.
 */
import type { Metafile } from 'esbuild';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { API_ROUTES, PORTAL_ROUTES, SUPPORT_FUNCTIONS } from '../shared/routes';
import { BUNDLING } from './bundling';

/** Repository root (infra/ sits directly below it). */
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

/** Where a function's bundle lands: dist/functions/<Name>/index.mjs, its map and static files beside it. */
export const bundlePath = (name: string) => join(DIST, name, `index${BUNDLING.outExtension}`);

/** What a function's asset takes from dist/functions: its bundle and its static files (not the map), by path. */
export const assetFiles = (name: string, staticFiles: Readonly<Record<string, string>> = {}) => [
  bundlePath(name),
  ...Object.keys(staticFiles).map((file) => join(dirname(bundlePath(name)), file)),
];

/**
 * Builds the Lambda bundles with the one option set of infra/bundling.ts, in one esbuild
 * build of every entry point (each bundle complete on its own: no code splitting; a
 * module the bundles share is parsed once): the local stack and the benchmark run these
 * files, and the CDK app copies them into its assets (infra/function-code.ts), so Lambda
 * runs the same bytes. Returns each bundle's view of the build's metafile, by name.
 */
async function buildBundles(targets = bundleTargets()): Promise<Map<string, Metafile>> {
  // The test run builds once up front; the local stacks it starts then reuse those bundles.
  if (process.env.PREBUILT_BUNDLES === '1') return new Map();
  // Build into a private folder, then rename each file into place: a rename is atomic,
  // so a stack loading bundles while another process rebuilds never sees half a file.
  const staging = join(ROOT, 'dist', `.build-${process.pid}-${Date.now()}`);
  try {
    // Imported here, not at the top: a start whose bundles are current never builds, so it need not load esbuild.
    const { build } = await import('esbuild');
    const { metafile } = await build({
      entryPoints: targets.map(({ name, entry }) => ({ in: join(ROOT, entry), out: join(name, 'index') })),
      outdir: staging,
      outExtension: { '.js': BUNDLING.outExtension },
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
      metafile: true,
      logLevel: 'warning',
    });
    const built = new Map<string, Metafile>();
    for (const { name, staticFiles = {} } of targets) {
      for (const [file, path] of Object.entries(staticFiles)) await copyFile(join(ROOT, path), join(staging, name, file));
      await mkdir(join(DIST, name), { recursive: true });
      for (const file of await readdir(join(staging, name))) await rename(join(staging, name, file), join(DIST, name, file));
      built.set(name, bundleMetafile(metafile, name));
    }
    return built;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/**
 * One bundle's view of a build's metafile: its own outputs (index.mjs and its map, each with
 * the inputs it holds bytes of), and every input the build read (a constant esbuild
 * inlined holds no bytes in any output, yet a change to its file changes the bundle).
 */
function bundleMetafile(metafile: Metafile, name: string): Metafile {
  return { inputs: metafile.inputs, outputs: Object.fromEntries(Object.entries(metafile.outputs).filter(([path]) => basename(dirname(path)) === name)) };
}

/** What the last complete build of these targets read, so an unchanged tree is not rebuilt (one file per fingerprint). */
export const buildStampPath = (targets: BundleTarget[]) => join(DIST, `.inputs-${fingerprint(targets).slice(0, 16)}.json`);

/** What shapes a build besides the files it read: this build's own code, esbuild's tsconfig settings, module resolution, the installed packages. */
const BUILD_SETTINGS = ['infra/bundles.ts', 'tsconfig.json', 'package.json', 'package-lock.json'];

interface BuildStamp {
  fingerprint: string;
  /** When the build started (ms): an input modified since then makes the bundles stale. */
  startedAt: number;
  /** Each target's files as this build wrote them (a hash): dist/functions holds one build of each, and another option set may have replaced it since. */
  bundles: Record<string, string>;
  inputs: string[];
}

/** The options and targets the bundles were built with: a change to either rebuilds all of them. */
function fingerprint(targets: BundleTarget[]): string {
  return createHash('sha256').update(JSON.stringify({ BUNDLING, targets })).digest('hex');
}

/**
 * Builds the bundles unless the last build is still current: same options and targets,
 * every bundle present and written by that build, and no file it read (esbuild's
 * metafile: sources and the node_modules they import, plus static files and
 * {@link BUILD_SETTINGS}) modified or gone since it started. The test run, `npm start`
 * and the CDK app call this.
 */
export async function ensureBundles(targets = bundleTargets()): Promise<'built' | 'current'> {
  if (process.env.PREBUILT_BUNDLES === '1') return 'current';
  if (await bundlesCurrent(targets)) return 'current';
  await rebuildBundles(targets);
  return 'built';
}

/** Builds the bundles and stamps what the build read (`npm run build` and the benchmark always build); returns {@link buildBundles}'s metafiles. */
export async function rebuildBundles(targets = bundleTargets()): Promise<Map<string, Metafile>> {
  const startedAt = Date.now();
  const built = await buildBundles(targets);
  // PREBUILT_BUNDLES=1: nothing was built, so there is nothing to stamp.
  if (built.size === 0) return built;
  const inputs = new Set<string>();
  for (const metafile of built.values()) for (const input of Object.keys(metafile.inputs)) inputs.add(resolve(input));
  for (const { staticFiles = {} } of targets) for (const path of Object.values(staticFiles)) inputs.add(join(ROOT, path));
  for (const file of BUILD_SETTINGS) inputs.add(join(ROOT, file));
  const stamp: BuildStamp = { fingerprint: fingerprint(targets), startedAt, bundles: await bundleHashes(targets), inputs: [...inputs] };
  await writeFile(buildStampPath(targets), JSON.stringify(stamp));
  return built;
}

/** Each target's hash over what its asset takes from dist/functions ({@link assetFiles}; '' where one is missing). */
async function bundleHashes(targets: BundleTarget[]): Promise<Record<string, string>> {
  const hash = async ({ name, staticFiles }: BundleTarget) => {
    const digest = createHash('sha256');
    for (const path of assetFiles(name, staticFiles)) {
      const content = await readFile(path).catch(() => undefined);
      if (!content) return '';
      digest.update(createHash('sha256').update(content).digest('hex'));
    }
    return digest.digest('hex');
  };
  return Object.fromEntries(await Promise.all(targets.map(async (target) => [target.name, await hash(target)] as const)));
}

async function bundlesCurrent(targets: BundleTarget[]): Promise<boolean> {
  let stamp: BuildStamp;
  try {
    stamp = JSON.parse(await readFile(buildStampPath(targets), 'utf8')) as BuildStamp;
  } catch {
    return false;
  }
  if (stamp.fingerprint !== fingerprint(targets)) return false;
  // By content, not by time: a file's modification time may trail the clock read just before it was written.
  const bundles = await bundleHashes(targets);
  if (!stamp.bundles || targets.some(({ name }) => bundles[name] !== stamp.bundles[name])) return false;
  const modifiedAt = async (path: string) => (await stat(path).catch(() => undefined))?.mtimeMs ?? Infinity;
  const times = await Promise.all(stamp.inputs.map(modifiedAt));
  return times.every((time) => time < stamp.startedAt);
}
