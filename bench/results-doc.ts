import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT } from '../infra/bundles';
import { boundedEventsTable } from './bounded-events';
import { boundedWorkTable } from './bounded-work';
import { noisyNeighbourTable, noisyNeighbourTargets } from './noisy-neighbour';
import {
  boundedEventsTargets,
  boundedWorkTargets,
  coldStartTable,
  costModel,
  eventDeliveryTargets,
  evaluateTargets,
  largeChannelTables,
  markdownTable,
  roundTripTable,
  scaleTable,
  targetTable,
  throughputTable,
  variantTable,
  warmTable,
  type BenchResults,
  type MergedRun,
} from './report';

/**
 * Where a run's numbers go: bench/results.json and the generated results section of
 * docs/PERFORMANCE.md (a full run), bench/tmp/results.partial.json (a subset or quick
 * run), and how a subset run's sections are merged into the full run's
 * (`npm run bench:merge`, bench/merge.ts).
 */

export const RESULTS_FILE = join(ROOT, 'bench', 'results.json');
export const PARTIAL_RESULTS_FILE = join(ROOT, 'bench', 'tmp', 'results.partial.json');
const DOC_FILE = join(ROOT, 'docs', 'PERFORMANCE.md');
const BEGIN = '<!-- bench:results:begin (written by npm run bench; edits here are overwritten) -->';
const END = '<!-- bench:results:end -->';

/** The measured sections of a run (everything but its facts, targets and cost model). */
const SECTIONS = [
  'coldStart',
  'warmCpu',
  'roundTrips',
  'scale',
  'largeChannel',
  'throughput',
  'eventDelivery',
  'boundedWork',
  'boundedEvents',
  'noisyNeighbour',
] as const satisfies ReadonlyArray<keyof BenchResults>;

/** Every target's verdict from the sections a run holds. */
export function benchTargets(results: Omit<BenchResults, 'targets' | 'costModel'>) {
  return [
    ...evaluateTargets(results),
    ...(results.eventDelivery ? eventDeliveryTargets(results.eventDelivery) : []),
    ...(results.boundedWork ? boundedWorkTargets(results.boundedWork) : []),
    ...(results.noisyNeighbour ? noisyNeighbourTargets(results.noisyNeighbour) : []),
    ...(results.boundedEvents ? boundedEventsTargets(results.boundedEvents) : []),
  ];
}

/**
 * The full run with the sections a later subset run measured in place of its own, that
 * run's facts recorded under `merged` (one entry per section, the latest kept), and the
 * targets and cost model evaluated again over the whole.
 */
export function mergedResults(full: BenchResults, subset: BenchResults): BenchResults {
  const sections = SECTIONS.filter((name) => subset[name] !== undefined);
  if (sections.length === 0) throw new Error(`${subset.command} measured no section to merge`);
  const run: MergedRun = { sections, date: subset.date, command: subset.command, durationSeconds: subset.durationSeconds, load: subset.machine.load };
  const measured = new Set<string>(sections);
  const merged = [...(full.merged ?? []).filter((earlier) => !earlier.sections.every((name) => measured.has(name))), run];
  const results = { ...full, ...Object.fromEntries(sections.map((name) => [name, subset[name]])), merged, errors: [...full.errors, ...subset.errors] };
  return { ...results, targets: benchTargets(results), costModel: costModel(results) };
}

/** Writes the results section of docs/PERFORMANCE.md from `data`; the file's path. */
export async function writeResultsSection(data: BenchResults): Promise<string> {
  const doc = await readFile(DOC_FILE, 'utf8').catch(() => '');
  const generated = renderDocSection(data);
  const next =
    doc.includes(BEGIN) && doc.includes(END)
      ? `${doc.slice(0, doc.indexOf(BEGIN))}${generated}${doc.slice(doc.indexOf(END) + END.length)}`
      : `${doc}\n${generated}\n`;
  await writeFile(DOC_FILE, next);
  return DOC_FILE;
}

/** The generated results section of docs/PERFORMANCE.md, from BEGIN to END. */
export function renderDocSection(data: BenchResults): string {
  const parts = [
    BEGIN,
    '',
    `Last run: **${data.date.slice(0, 10)}** (${data.date}), \`${data.command}\`, ${data.durationSeconds} s, on ${data.machine.cores} × ${data.machine.cpu}, ${data.machine.memoryGb} GB, Node ${data.machine.node} (${data.machine.platform}); load average at start ${data.machine.load.join(' / ')}. Raw numbers: \`bench/results.json\`.`,
    ...(data.merged ?? []).map(
      (run) =>
        `\nSections ${run.sections.join(', ')} from a later run, merged in (\`npm run bench:merge\`): **${run.date.slice(0, 10)}** (${run.date}), \`${run.command}\`, ${run.durationSeconds} s; load average at start ${run.load.join(' / ')}.`,
    ),
    '',
    '### Targets',
    '',
    markdownTable(targetTable(data.targets)),
  ];
  if (data.coldStart) {
    parts.push(
      '',
      `### 1. Cold start per function (median of ${data.coldStart.runs} runs, interleaved with the floor)`,
      '',
      'init = from process start to `handler` ready in a fresh `node`: CPU time (the verdict: other processes on a shared machine cannot inflate it) and wall clock; ratios are medians of back-to-back function/floor pairs. ' +
        data.coldStart.buildCheck +
        '.',
      '',
      markdownTable(coldStartTable(data.coldStart)),
      '',
      'Largest contributors to each bundle (esbuild metafile, KB in the output):',
      '',
      markdownTable({
        headers: ['function', 'top modules'],
        rows: data.coldStart.rows.map((row) => [row.name, row.top.map((entry) => `${entry.module} ${kb(entry.bytes)}`).join(', ')]),
      }),
      '',
      `#### Bundle formats (median of ${data.coldStart.variantRuns} interleaved runs)`,
      '',
      markdownTable(variantTable(data.coldStart)),
    );
  }
  if (data.warmCpu) {
    parts.push(
      '',
      `### 2. Warm per-request CPU (median of ${data.warmCpu.samples} interleaved requests, after ${data.warmCpu.warmup} warm-up requests)`,
      '',
      'CPU = the process’s user + system time around one request (immune to other processes on the machine; the verdict); wall = the same from the clock.',
      '',
      markdownTable(warmTable(data.warmCpu)),
    );
  }
  if (data.roundTrips) {
    parts.push('', '### 3. DynamoDB round trips per request (authorizer warm)', '', markdownTable(roundTripTable(data.roundTrips.rows)));
    if (data.roundTrips.uncovered.length) parts.push('', `No round-trip scenario yet: ${data.roundTrips.uncovered.join(', ')}.`);
  }
  if (data.scale) {
    parts.push(
      '',
      '### 4. Scale',
      '',
      `Seeding (BatchWriteItem, 8 in flight, dynalite in memory): ${data.scale.seeding.map((entry) => `${entry.what} in ${(entry.ms / 1000).toFixed(1)} s`).join(', ')}.`,
      '',
      markdownTable(scaleTable(data.scale)),
    );
  }
  if (data.largeChannel) {
    const [imports, reads] = largeChannelTables(data.largeChannel);
    parts.push('', '### 4b. A large channel: contacts/import, then contacts/list', '', markdownTable(imports), '', markdownTable(reads));
  }
  if (data.throughput) {
    parts.push(
      '',
      '### 5. Throughput of the local stack',
      '',
      `Mix per connection, in turn: ${data.throughput.mix.map((entry) => `${entry.method} ${entry.path.split('?')[0]}${entry.path.includes('page=') ? ' (deep page)' : entry.path.includes('search=') ? ' (search)' : ''}`).join(', ')}.`,
      '',
      markdownTable(throughputTable(data.throughput)),
    );
  }
  if (data.boundedWork) parts.push('', '### 7. Bounded work per call', '', markdownTable(boundedWorkTable(data.boundedWork)));
  if (data.boundedEvents) parts.push('', '### 7b. Nothing lost under load', '', markdownTable(boundedEventsTable(data.boundedEvents)));
  if (data.noisyNeighbour) {
    parts.push(
      '',
      "### 8. A noisy neighbour: B's state change → first attempt, quiet and while A floods",
      '',
      markdownTable(noisyNeighbourTable(data.noisyNeighbour)),
    );
  }
  if (data.costModel.length) parts.push('', 'The cost of these requests, per million and per month, and of what a stage costs besides: *Cost model* below.');
  if (data.errors.length) parts.push('', '### Sections that could not run', '', ...data.errors.map((error) => `- ${error.split('\n')[0]}`));
  parts.push('', END);
  return parts.join('\n');
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)}`;
