/**
 * `npm run bench`: the performance benchmark (docs/PERFORMANCE.md explains it).
 *
 *   1. cold start per function vs a floor bundle (bundle bytes, init time)
 *   2. warm per-request CPU per endpoint vs a bare-handler floor
 *   3. DynamoDB round trips and consumed capacity per request vs docs/ARCHITECTURE.md
 *   4. scale: contacts/list at 1k/10k/100k contacts; labels at the per-channel cap
 *   5. throughput of the local stack under autocannon
 *
 * Prints the tables, writes bench/results.json and the results section of
 * docs/PERFORMANCE.md. Not a test: it exits 0 unless it could not measure
 * (BENCH_STRICT=1 also exits 1 when a target fails). Loopback traffic only.
 *
 * Knobs (environment): BENCH_QUICK=1 (fewer runs, 1k/10k contacts, for trying it out),
 * BENCH_ONLY=cold,warm,trips,scale,throughput (a subset; the doc is then not rewritten:
 * `npm run bench:merge` merges its sections into the full run's, bench/merge.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { ROOT } from '../infra/bundles';
import { localMediaSettings } from '../scripts/local/media-links';
import { localSuppressionKey } from '../scripts/local/suppression-key';
import { coldStart } from './cold-start';
import {
  coldStartTable,
  costModel,
  costModelNote,
  costTable,
  scaleTable,
  largeChannelTables,
  targetTable,
  textTable,
  throughputTable,
  eventDeliveryTable,
  roundTripTable,
  variantTable,
  warmTable,
  type BenchResults,
  type Table,
} from './report';
import { noisyNeighbourTable } from './noisy-neighbour';
import { benchTargets, PARTIAL_RESULTS_FILE, RESULTS_FILE, writeResultsSection } from './results-doc';
import { warmCpu } from './warm-cpu';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
delete process.env.PREBUILT_BUNDLES;

const quick = process.env.BENCH_QUICK === '1';
const only = new Set((process.env.BENCH_ONLY ?? 'cold,warm,trips,scale,throughput,events,bounded,noisy').split(',').map((part) => part.trim()));
const started = Date.now();
const log = (line: string) => console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);
const section = (title: string, table: Table) => console.log(`\n== ${title}\n${textTable(table)}\n`);

/** In-memory dynalite in its own process, so seeding and the handlers run on different cores. */
async function startStoreProcess(): Promise<{ endpoint: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bench', 'store-process.ts')], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const endpoint = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const line = text.split('\n').find((candidate) => candidate.startsWith('{'));
      if (line) resolve((JSON.parse(line) as { endpoint: string }).endpoint);
    });
    child.once('exit', (code) => reject(new Error(`store process exited with ${code}`)));
  });
  return { endpoint, child };
}

const errors: string[] = [];
async function attempt<T>(name: string, run: () => Promise<T>): Promise<T | undefined> {
  try {
    return await run();
  } catch (error) {
    const message = `${name}: ${(error as Error).stack ?? String(error)}`;
    errors.push(message);
    console.error(`\n!! ${message}\n`);
    return undefined;
  }
}

const results: Omit<BenchResults, 'targets' | 'costModel'> = {
  date: new Date().toISOString(),
  machine: {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memoryGb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    load: loadavg().map((value) => Number(value.toFixed(2))),
  },
  command: `npm run bench${quick ? ' (BENCH_QUICK=1)' : ''}${process.env.BENCH_ONLY ? ` (BENCH_ONLY=${process.env.BENCH_ONLY})` : ''}`,
  durationSeconds: 0,
  errors,
};

if (only.has('cold')) {
  results.coldStart = await attempt('cold start', () =>
    coldStart({
      runs: quick ? 5 : Number(process.env.BENCH_COLD_RUNS ?? 41),
      variantRuns: quick ? 3 : Number(process.env.BENCH_VARIANT_RUNS ?? 7),
      variantFunctions: ['ContactsList', 'ContactsManage'],
      log,
    }),
  );
  if (results.coldStart) {
    section(
      `1. Cold start (median of ${results.coldStart.runs} interleaved runs; ratios are medians of back-to-back function/floor pairs; verdict on CPU time)`,
      coldStartTable(results.coldStart),
    );
    section('1b. Bundle formats', variantTable(results.coldStart));
  }
}

if (only.has('warm')) {
  log('warm CPU: full stack vs bare floor per endpoint, DynamoDB answered in-process');
  results.warmCpu = await attempt('warm CPU', () =>
    warmCpu(quick ? { samples: 600, warmup: 200 } : { samples: Number(process.env.BENCH_WARM_SAMPLES ?? 1500), warmup: 500 }),
  );
  if (results.warmCpu)
    section(
      `2. Warm per-request CPU (median of ${results.warmCpu.samples} interleaved requests each; process CPU time per request)`,
      warmTable(results.warmCpu),
    );
}

if (only.has('trips') || only.has('scale') || only.has('large') || only.has('bounded')) {
  const store = await attempt('store', startStoreProcess);
  if (store) {
    // The handlers run in this process here: their log and metric lines would drown the tables.
    Object.assign(process.env, {
      DYNAMODB_ENDPOINT: store.endpoint,
      TABLE_NAME: 'workspace-api',
      AWS_REGION: 'local',
      POWERTOOLS_LOG_LEVEL: 'SILENT',
      POWERTOOLS_METRICS_DISABLED: 'true',
      // Media as npm start keeps them (files, signed links); chat/media/get's links are signed here, never opened.
      ...localMediaSettings(join(ROOT, 'bench', 'tmp')),
      ...localSuppressionKey(join(ROOT, 'bench', 'tmp')),
      MEDIA_URL_BASE: 'http://127.0.0.1:9',
    });
    try {
      if (only.has('trips')) {
        log('round trips: every endpoint case against dynalite, counted with SDK middleware');
        const { roundTrips } = await import('./round-trips');
        results.roundTrips = await attempt('round trips', () => roundTrips(log));
        if (results.roundTrips)
          section('3. DynamoDB round trips per request (authorizer warm; RRU/WRU = consumed capacity)', roundTripTable(results.roundTrips.rows));
      }
      if (only.has('scale')) {
        const { scale } = await import('./scale');
        results.scale = await attempt('scale', () => scale({ sizes: quick ? [1_000, 10_000] : [1_000, 10_000, 100_000], log }));
        if (results.scale) section('4. Scale (one channel; latency is local: dynalite on this machine)', scaleTable(results.scale));
      }
      if (only.has('scale') || only.has('large')) {
        const { largeChannel } = await import('./large-channel');
        const sizes = quick ? [10_000] : [100_000, ...(process.env.BENCH_SCALE === '1m' ? [1_000_000] : [])];
        results.largeChannel = await attempt('large channel', () => largeChannel({ sizes, log }));
        if (results.largeChannel)
          for (const table of largeChannelTables(results.largeChannel)) section('4b. A large channel (contacts/import, then contacts/list)', table);
      }
      if (only.has('bounded')) {
        const { boundedWork, boundedWorkTable } = await import('./bounded-work');
        results.boundedWork = await attempt('bounded work', () => boundedWork({ sweepMessages: quick ? 2_000 : 10_000, log }));
        if (results.boundedWork) section('7. Bounded work per call (contacts/import repeats, the content sweep)', boundedWorkTable(results.boundedWork));
        // The issue's scale is 1,000 orphans a shard and a 10,000-event lane; BENCH_LANE_EVENTS sets the lane's (about 25 ms an event here).
        const { boundedEvents, boundedEventsTable } = await import('./bounded-events');
        const laneEvents = Number(process.env.BENCH_LANE_EVENTS ?? (quick ? 500 : 10_000));
        results.boundedEvents = await attempt('bounded events', () => boundedEvents({ orphansPerShard: quick ? 200 : 1_000, laneEvents, log }));
        if (results.boundedEvents)
          section('7b. Nothing lost under load (the re-drive past orphans, a lane backlog)', boundedEventsTable(results.boundedEvents));
      }
    } finally {
      store.child.kill('SIGTERM');
    }
  }
}

if (only.has('throughput')) {
  const { throughput } = await import('./throughput');
  results.throughput = await attempt('throughput', () =>
    throughput({ durationSeconds: quick ? 5 : 12, connections: 20, bundlesBuilt: results.coldStart !== undefined, log }),
  );
  if (results.throughput) section('5. Throughput of the local stack (npm start, autocannon)', throughputTable(results.throughput));
}

if (only.has('events')) {
  const { eventDelivery } = await import('./event-delivery');
  results.eventDelivery = await attempt('events', () => eventDelivery({ events: quick ? 300 : 1000, bundlesBuilt: results.coldStart !== undefined, log }));
  if (results.eventDelivery)
    section(
      '6. Event delivery on the local stack (signed inbound webhooks → message.received deliveries to a local receiver)',
      eventDeliveryTable(results.eventDelivery),
    );
}

if (only.has('noisy')) {
  const { noisyNeighbour } = await import('./noisy-neighbour');
  // BENCH_NOISY_SCALE (0–1) runs it smaller: fewer rounds (6 at full scale: 300 of B's messages per condition) and a smaller import.
  const scale = Math.min(1, Number(process.env.BENCH_NOISY_SCALE ?? (quick ? 0.3 : 1)) || 1);
  results.noisyNeighbour = await attempt('noisy neighbour', () =>
    noisyNeighbour({
      rounds: Math.max(2, Math.round(6 * scale)),
      messages: 50,
      importRows: Math.round(1000 * scale),
      bundlesBuilt: results.coldStart !== undefined,
      log,
    }),
  );
  if (results.noisyNeighbour)
    section("8. A noisy neighbour (B's time to first attempt, quiet and while A floods)", noisyNeighbourTable(results.noisyNeighbour));
}

results.durationSeconds = Math.round((Date.now() - started) / 1000);
const targets = benchTargets(results);
const costs = costModel(results);
const full: BenchResults = { ...results, targets, costModel: costs };
if (costs.length) section(`Cost model ($ per million requests, AWS list prices). ${costModelNote()}`, costTable(costs));
section('Targets', targetTable(targets));

// A subset or quick run must not overwrite the full run's numbers: it writes beside them, in bench/tmp/.
const partial = Boolean(process.env.BENCH_ONLY) || quick;
const resultsFile = partial ? PARTIAL_RESULTS_FILE : RESULTS_FILE;
await mkdir(dirname(resultsFile), { recursive: true });
await writeFile(resultsFile, `${JSON.stringify(full, null, 2)}\n`);
log(`wrote ${resultsFile}`);

if (!partial) {
  log(`updated the results section of ${await writeResultsSection(full)}`);
  // The cost model reads the results just written: its section (and DEPLOYMENT.md's generated tables) follow them.
  const { writeGeneratedDocs } = await import('./infra-docs');
  log(`regenerated: ${writeGeneratedDocs().join(', ') || 'nothing changed'}`);
}

const failed = targets.filter((target) => target.ok === false);
log(
  `done in ${full.durationSeconds} s: ${targets.filter((target) => target.ok === true).length} targets hold, ${failed.length} fail${errors.length ? `, ${errors.length} section(s) could not run` : ''}`,
);
process.exit(errors.length || (process.env.BENCH_STRICT === '1' && failed.length) ? 1 : 0);
