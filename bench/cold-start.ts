import { build, type BuildOptions, type Metafile } from 'esbuild';
import { execFile } from 'node:child_process';
import { cp, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { BUNDLING } from '../infra/bundling';
import { bundlePath, rebuildBundles, ROOT } from '../infra/bundles';
import { API_ROUTES, SUPPORT_FUNCTIONS, WEBHOOK_PATH } from '../shared/routes';
import { median, shuffle } from './stats';

/**
 * 1. Cold start per function: bundle bytes and module init time (process start →
 * handler ready, in a fresh Node process) of the bundles infra/bundles.ts builds with
 * infra/bundling.ts (what CDK deploys), each against a floor built with the same
 * options whose handler only creates the AWS SDK clients that function declares.
 * Function and floor runs are interleaved in shuffled order; medians are reported.
 */

export const TMP = join(ROOT, 'bench', 'tmp');
const RUNNER = join(ROOT, 'bench', 'cold-runner.mjs');

/** The SDK clients a floor may create; the DynamoDB document client is in every floor. */
const CLIENTS = {
  dynamodb: {
    package: '@aws-sdk/client-dynamodb',
    code: `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';\nimport { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';\nclients.push(DynamoDBDocumentClient.from(new DynamoDBClient({})));`,
  },
  sqs: { package: '@aws-sdk/client-sqs', code: `import { SQSClient } from '@aws-sdk/client-sqs';\nclients.push(new SQSClient({}));` },
  kms: { package: '@aws-sdk/client-kms', code: `import { KMSClient } from '@aws-sdk/client-kms';\nclients.push(new KMSClient({}));` },
  'secrets-manager': {
    package: '@aws-sdk/client-secrets-manager',
    code: `import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';\nclients.push(new SecretsManagerClient({}));`,
  },
  scheduler: {
    package: '@aws-sdk/client-scheduler',
    code: `import { SchedulerClient } from '@aws-sdk/client-scheduler';\nclients.push(new SchedulerClient({}));`,
  },
} as const;
type ClientName = keyof typeof CLIENTS;

export interface FunctionInfo {
  name: string;
  entry: string;
  kind: 'api' | 'support';
  path?: string;
  /** Clients the route table declares (readsSecrets, sendsToQueue, sendsToEventQueue, sealsWebhookSecrets, …), plus DynamoDB when the function loads it. */
  declaredClients: ClientName[];
  /** Clients whose package the bundle actually contains. */
  bundledClients: ClientName[];
}

/** Every function of the route table and SUPPORT_FUNCTIONS, with the SDK clients it declares. */
export function functionInventory(): FunctionInfo[] {
  const declared = (spec: object): ClientName[] => {
    const flags = spec as Record<string, unknown>;
    // The table client is added below only if the bundle has it (the docs functions never touch the table).
    const clients: ClientName[] = [];
    // The public WhatsApp webhook reads its own secret, not channels' tokens; the pagers the cursor-signing key; the hashers the suppression key.
    if (flags.readsSecrets || flags.signsCursors || flags.hashesNumbers || flags.publicPath === WEBHOOK_PATH) clients.push('secrets-manager');
    // Both queues are SQS: the automation queue (sendsToQueue) and the event queue (sendsToEventQueue).
    if (flags.sendsToQueue || flags.sendsToEventQueue) clients.push('sqs');
    if (flags.sealsWebhookSecrets || flags.opensWebhookSecrets) clients.push('kms');
    if (Object.entries(flags).some(([key, value]) => /schedul/i.test(key) && value === true)) clients.push('scheduler');
    return clients;
  };
  return [
    ...API_ROUTES.map((route) => ({
      name: route.name,
      entry: route.entry,
      kind: 'api' as const,
      path: route.path,
      declaredClients: declared(route),
      bundledClients: [],
    })),
    ...Object.values(SUPPORT_FUNCTIONS).map((fn) => ({
      name: fn.name,
      entry: fn.entry,
      kind: 'support' as const,
      declaredClients: declared(fn),
      bundledClients: [],
    })),
  ];
}

/**
 * esbuild options as infra/bundles.ts derives them from infra/bundling.ts (renamed keys
 * mapped, every other key passed through, so a new option there reaches the floors too),
 * with overrides for the format study. coldStart() checks the result against a real build.
 */
export function esbuildOptions(entry: string, outfile: string, overrides: Partial<BuildOptions> = {}): BuildOptions {
  const { externalModules, banner, outExtension: _outExtension, ...rest } = BUNDLING as typeof BUNDLING & Record<string, unknown>;
  return {
    entryPoints: [entry],
    outfile,
    bundle: true,
    ...(rest as Partial<BuildOptions>),
    external: externalModules,
    banner: banner ? { js: banner } : {},
    logLevel: 'warning',
    ...overrides,
  };
}

const entryOutput = (metafile: Metafile) => Object.values(metafile.outputs).find((out) => out.entryPoint !== undefined) ?? Object.values(metafile.outputs)[0];

/** Bytes each package (or our own folder) contributes to a bundle, largest first. */
export function composition(metafile: Metafile): Array<{ module: string; bytes: number }> {
  const output = entryOutput(metafile);
  const byModule = new Map<string, number>();
  for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) {
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1];
    const module =
      pkg ??
      path
        .split('/')
        .slice(0, path.startsWith('shared/') ? 2 : 1)
        .join('/');
    byModule.set(module, (byModule.get(module) ?? 0) + bytesInOutput);
  }
  return [...byModule].map(([module, bytes]) => ({ module, bytes })).sort((a, b) => b.bytes - a.bytes);
}

/** A specific file's share, e.g. libphonenumber's metadata JSON. */
function largestInputs(metafile: Metafile, top = 5) {
  return Object.entries(entryOutput(metafile).inputs)
    .map(([path, { bytesInOutput }]) => ({ path, bytes: bytesInOutput }))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, top);
}

const runnerEnv = (): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    // What Lambda sets (and the stack adds); no endpoint or credentials: nothing is called at init.
    AWS_REGION: 'us-east-1',
    AWS_LAMBDA_FUNCTION_NAME: 'bench',
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '256',
    TABLE_NAME: 'workspace-api',
    POWERTOOLS_SERVICE_NAME: 'workspace-api',
    POWERTOOLS_LOG_LEVEL: 'INFO',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
  return env;
};

export interface InitSample {
  /** ms from process start to handler ready (wall clock). */
  ready: number;
  /** CPU ms the process used from its start to handler ready: what an uncontended CPU would take. */
  cpu: number;
  /** ms from the runner's first line to handler ready: the bundle's own load and init. */
  load: number;
  rss: number;
}

/** Runs one fresh Node process that imports `file`. */
export function measureInit(file: string, nodeArgs: string[] = []): Promise<InitSample> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [...nodeArgs, RUNNER, file], { env: runnerEnv(), cwd: dirname(file), maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`cold start of ${file} failed: ${stderr || error.message}`));
      const { boot, ready, cpu, rss } = JSON.parse(stdout) as { boot: number; ready: number; cpu: number; rss: number };
      resolve({ ready, cpu, load: ready - boot, rss });
    });
  });
}

/** Bytes as deployed: the asset's files deflated (≈ the Lambda zip). */
async function deployedBytes(files: string[]): Promise<number> {
  let total = 0;
  for (const file of files) {
    try {
      total += deflateRawSync(await readFile(file)).byteLength;
    } catch {
      // no such file (e.g. no source map)
    }
  }
  return total;
}

/** Bytes of the static files a function ships beside its bundle. */
async function staticFileBytes(name: string): Promise<number> {
  const row = Object.values(SUPPORT_FUNCTIONS).find((fn) => fn.name === name);
  let total = 0;
  for (const path of Object.values(row?.staticFiles ?? {})) total += await fileSize(join(ROOT, path));
  return total;
}

async function fileSize(file: string): Promise<number> {
  try {
    return (await stat(file)).size;
  } catch {
    return 0;
  }
}

export interface ColdStartRow {
  name: string;
  kind: 'api' | 'support';
  path?: string;
  clients: string[];
  undeclaredClients: string[];
  bytes: number;
  mapBytes: number;
  /** Static files shipped beside the bundle (`staticFiles` in shared/routes.ts): read on the first request that needs them, never at init. */
  staticFileBytes: number;
  floorBytes: number;
  overFloorBytes: number;
  /** Function/floor pairs measured (borderline functions get twice the runs). */
  pairs: number;
  /** Wall-clock init (process start → handler ready), median, and its paired ratio to the floor. */
  initMs: number;
  floorInitMs: number;
  initRatio: number;
  /** CPU time from process start to handler ready, median, and its paired ratio: the verdict's measure. */
  initCpuMs: number;
  floorInitCpuMs: number;
  initCpuRatio: number;
  loadMs: number;
  floorLoadMs: number;
  loadRatio: number;
  rssMb: number;
  top: Array<{ module: string; bytes: number }>;
  largestFiles: Array<{ path: string; bytes: number }>;
  bytesOk: boolean;
  initOk: boolean;
}

export interface VariantRow {
  variant: string;
  label: string;
  function: string;
  bytes: number;
  deployedBytes: number;
  initMs: number;
  initCpuMs: number;
  loadMs: number;
  vsCurrent: number;
  vsCurrentCpu: number;
}

export interface ColdStartResult {
  runs: number;
  node: string;
  rows: ColdStartRow[];
  variants: VariantRow[];
  variantRuns: number;
  buildCheck: string;
}

export const INIT_RATIO_TARGET = 1.15;
/** Functions whose ratio lies this close to the target after the main rounds are measured twice as often. */
export const BORDERLINE_MARGIN = 0.04;
export const OVER_FLOOR_BYTES_TARGET = 150 * 1024;

/** Builds the functions CDK deploys (dist/functions, stamped current) and copies them to bench/tmp, so concurrent rebuilds of dist/ do not disturb the runs. */
async function buildFunctions(inventory: FunctionInfo[]) {
  const metafiles = await rebuildBundles();
  if (metafiles.size === 0) throw new Error('PREBUILT_BUNDLES=1 skips the build; unset it for the benchmark.');
  for (const name of metafiles.keys()) {
    const dir = join(TMP, 'functions', name);
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    const file = bundlePath(name);
    await cp(file, join(dir, 'index.mjs'));
    await cp(`${file}.map`, join(dir, 'index.mjs.map')).catch(() => undefined);
  }
  for (const fn of inventory) {
    const inputs = Object.keys(entryOutput(metafiles.get(fn.name)!).inputs);
    fn.bundledClients = (Object.keys(CLIENTS) as ClientName[]).filter((client) =>
      inputs.some((path) => path.includes(`node_modules/${CLIENTS[client].package}/`)),
    );
    if (fn.bundledClients.includes('dynamodb')) fn.declaredClients.unshift('dynamodb');
  }
  return metafiles;
}

async function buildFloor(clients: ClientName[]): Promise<string> {
  const key = [...clients].sort().join('+') || 'no-clients';
  const dir = join(TMP, 'floors', key);
  await mkdir(dir, { recursive: true });
  const imports = clients
    .map((client) =>
      CLIENTS[client].code
        .split('\n')
        .filter((line) => line.startsWith('import'))
        .join('\n'),
    )
    .join('\n');
  const creates = clients
    .map((client) =>
      CLIENTS[client].code
        .split('\n')
        .filter((line) => !line.startsWith('import'))
        .join('\n'),
    )
    .join('\n');
  // Plain JavaScript, so the type-check of the repository never sees generated files.
  const entry = join(dir, 'floor.mjs');
  await writeFile(
    entry,
    `// Floor: a handler that only creates the SDK clients (${key}) and does nothing else.\n${imports}\nconst clients = [];\n${creates}\nexport const handler = async () => ({ statusCode: 200, body: String(clients.length) });\n`,
  );
  const outfile = join(dir, 'index.mjs');
  await build(esbuildOptions(entry, outfile));
  return outfile;
}

/** Bundle formats compared on a few representative functions. */
export const VARIANTS: Array<{ id: string; label: string; options: Partial<BuildOptions>; ext: string; nodeArgs?: string[] }> = [
  { id: 'current', label: 'ESM, SDK bundled, minified, external source map (infra/bundling.ts)', options: {}, ext: 'mjs' },
  { id: 'no-map', label: 'ESM, SDK bundled, minified, no source map', options: { sourcemap: false }, ext: 'mjs' },
  { id: 'unminified', label: 'ESM, SDK bundled, not minified', options: { minify: false }, ext: 'mjs' },
  { id: 'inline-map', label: 'ESM, SDK bundled, minified, inline source map', options: { sourcemap: 'inline' }, ext: 'mjs' },
  { id: 'cjs', label: 'CommonJS, SDK bundled, minified, external source map', options: { format: 'cjs', banner: {} }, ext: 'cjs' },
  {
    id: 'sdk-external',
    label: 'ESM, AWS SDK external (loaded from node_modules, ≈ the runtime’s copy), minified',
    options: { external: ['@aws-sdk/*', '@smithy/*'] },
    ext: 'mjs',
  },
  { id: 'enable-source-maps', label: 'current bundle run with NODE_OPTIONS=--enable-source-maps', options: {}, ext: 'mjs', nodeArgs: ['--enable-source-maps'] },
];

async function measureVariants(functions: FunctionInfo[], runs: number, log: (line: string) => void): Promise<VariantRow[]> {
  const builds: Array<{ variant: (typeof VARIANTS)[number]; fn: FunctionInfo; file: string; bytes: number; deployed: number }> = [];
  for (const fn of functions) {
    for (const variant of VARIANTS) {
      const dir = join(TMP, 'variants', variant.id, fn.name);
      await rm(dir, { recursive: true, force: true });
      await mkdir(dir, { recursive: true });
      const file = join(dir, `index.${variant.ext}`);
      await build(esbuildOptions(join(ROOT, fn.entry), file, variant.options));
      // An external map stays out of the Lambda asset (infra/function-code.ts); an inline one is in the file.
      builds.push({ variant, fn, file, bytes: await fileSize(file), deployed: await deployedBytes([file]) });
    }
  }
  const samples = new Map<string, InitSample[]>(builds.map((entry) => [entry.file + entry.variant.id, []]));
  for (let round = 0; round < runs; round++) {
    for (const entry of shuffle([...builds])) samples.get(entry.file + entry.variant.id)!.push(await measureInit(entry.file, entry.variant.nodeArgs));
    if ((round + 1) % 5 === 0) log(`  formats: round ${round + 1}/${runs}`);
  }
  const rows = builds.map((entry) => {
    const list = samples.get(entry.file + entry.variant.id)!;
    return {
      variant: entry.variant.id,
      label: entry.variant.label,
      function: entry.fn.name,
      bytes: entry.bytes,
      deployedBytes: entry.deployed,
      initMs: median(list.map((s) => s.ready)),
      initCpuMs: median(list.map((s) => s.cpu)),
      loadMs: median(list.map((s) => s.load)),
      vsCurrent: 0,
      vsCurrentCpu: 0,
    };
  });
  for (const [i, row] of rows.entries()) {
    // Rounds are aligned: compare each run with the current format's run of the same round.
    const own = samples.get(builds[i].file + builds[i].variant.id)!;
    const currentIndex = builds.findIndex((entry) => entry.fn.name === row.function && entry.variant.id === 'current');
    const current = samples.get(builds[currentIndex].file + 'current')!;
    row.vsCurrent = median(own.map((sample, round) => sample.ready / current[round].ready));
    row.vsCurrentCpu = median(own.map((sample, round) => sample.cpu / current[round].cpu));
  }
  return rows;
}

export async function coldStart(options: {
  runs: number;
  variantRuns: number;
  variantFunctions: string[];
  log: (line: string) => void;
}): Promise<ColdStartResult> {
  const { log } = options;
  const inventory = functionInventory();
  log(`cold start: building ${inventory.length} functions with scripts/build.ts (infra/bundling.ts options)`);
  const metafiles = await buildFunctions(inventory);

  // Guard against drift between scripts/build.ts and this file's copy of its option mapping.
  const probe = inventory[0];
  const probeFile = join(TMP, 'build-check', 'index.mjs');
  await build(esbuildOptions(join(ROOT, probe.entry), probeFile));
  const same = (await readFile(probeFile, 'utf8')) === (await readFile(join(TMP, 'functions', probe.name, 'index.mjs'), 'utf8'));
  const buildCheck = same
    ? `floors use the same options as scripts/build.ts (checked on ${probe.name})`
    : `WARNING: bench options differ from scripts/build.ts (${probe.name} bundles differ)`;
  if (!same) log(buildCheck);

  const floors = new Map<string, string>();
  for (const fn of inventory) {
    const key = [...fn.declaredClients].sort().join('+') || 'no-clients';
    if (!floors.has(key)) floors.set(key, await buildFloor(fn.declaredClients));
  }
  const floorOf = (fn: FunctionInfo) => floors.get([...fn.declaredClients].sort().join('+') || 'no-clients')!;

  log(`cold start: ${options.runs} interleaved runs of ${inventory.length} functions and their floors`);
  const fnSamples = new Map<string, InitSample[]>(inventory.map((fn) => [fn.name, []]));
  const floorSamples = new Map<string, InitSample[]>(inventory.map((fn) => [fn.name, []]));
  /** One function run and its floor's run, back to back in random order. */
  const measurePair = async (fn: FunctionInfo) => {
    const own = join(TMP, 'functions', fn.name, 'index.mjs');
    const pair: Array<[string, Map<string, InitSample[]>]> = [
      [own, fnSamples],
      [floorOf(fn), floorSamples],
    ];
    for (const [file, target] of Math.random() < 0.5 ? pair : pair.reverse()) target.get(fn.name)!.push(await measureInit(file));
  };
  const cpuRatio = (fn: FunctionInfo) => median(fnSamples.get(fn.name)!.map((s, i) => s.cpu / floorSamples.get(fn.name)![i].cpu));
  for (let round = 0; round < options.runs; round++) {
    for (const fn of shuffle([...inventory])) await measurePair(fn);
    if ((round + 1) % 5 === 0) log(`  round ${round + 1}/${options.runs}`);
  }
  // A ratio close to the target can read either way on a noisy machine: those functions get
  // as many pairs again, interleaved among themselves, and the verdict uses all of them.
  const borderline = inventory.filter((fn) => Math.abs(cpuRatio(fn) - INIT_RATIO_TARGET) <= BORDERLINE_MARGIN);
  if (borderline.length && options.runs >= 15) {
    log(`cold start: ${options.runs} more runs of the functions within ±${BORDERLINE_MARGIN} of the target: ${borderline.map((fn) => fn.name).join(', ')}`);
    for (let round = 0; round < options.runs; round++) for (const fn of shuffle([...borderline])) await measurePair(fn);
  }

  const rows: ColdStartRow[] = [];
  for (const fn of inventory) {
    const file = join(TMP, 'functions', fn.name, 'index.mjs');
    const bytes = await fileSize(file);
    const floorBytes = await fileSize(floorOf(fn));
    const own = fnSamples.get(fn.name)!;
    const floor = floorSamples.get(fn.name)!;
    const initMs = median(own.map((s) => s.ready));
    const floorInitMs = median(floor.map((s) => s.ready));
    const loadMs = median(own.map((s) => s.load));
    const floorLoadMs = median(floor.map((s) => s.load));
    // Each function run has its floor run next to it (same machine load): the ratio is the median of those pairs.
    const initRatio = median(own.map((s, i) => s.ready / floor[i].ready));
    const initCpuRatio = median(own.map((s, i) => s.cpu / floor[i].cpu));
    const loadRatio = median(own.map((s, i) => s.load / floor[i].load));
    const metafile = metafiles.get(fn.name)!;
    rows.push({
      name: fn.name,
      kind: fn.kind,
      pairs: own.length,
      path: fn.path,
      clients: fn.declaredClients,
      undeclaredClients: fn.bundledClients.filter((client) => !fn.declaredClients.includes(client)),
      bytes,
      mapBytes: await fileSize(`${file}.map`),
      staticFileBytes: await staticFileBytes(fn.name),
      floorBytes,
      overFloorBytes: bytes - floorBytes,
      initMs,
      floorInitMs,
      initRatio,
      initCpuMs: median(own.map((s) => s.cpu)),
      floorInitCpuMs: median(floor.map((s) => s.cpu)),
      initCpuRatio,
      loadMs,
      floorLoadMs,
      loadRatio,
      rssMb: median(own.map((s) => s.rss)) / 2 ** 20,
      top: composition(metafile).slice(0, 8),
      largestFiles: largestInputs(metafile),
      bytesOk: bytes - floorBytes <= OVER_FLOOR_BYTES_TARGET,
      // On a shared machine other processes inflate wall time; CPU time from process start is what Lambda's
      // uncontended init would take, so the verdict uses it (wall-clock numbers are reported beside it).
      initOk: initCpuRatio <= INIT_RATIO_TARGET,
    });
  }

  const variantFns = inventory.filter((fn) => options.variantFunctions.includes(fn.name));
  log(`cold start: bundle formats on ${variantFns.map((fn) => fn.name).join(', ')} (${options.variantRuns} interleaved runs)`);
  const variants = options.variantRuns > 0 ? await measureVariants(variantFns, options.variantRuns, log) : [];
  return { runs: options.runs, node: process.version, rows, variants, variantRuns: options.variantRuns, buildCheck };
}
