import type { BoundedEventsResult } from './bounded-events';
import type { BoundedWorkResult } from './bounded-work';
import type { LargeChannelRead, LargeChannelResult } from './large-channel';
import type { ColdStartResult } from './cold-start';
import { BORDERLINE_MARGIN, INIT_RATIO_TARGET, OVER_FLOOR_BYTES_TARGET } from './cold-start';
import { API_ROUTES, SUPPORT_FUNCTIONS, tableAccessOf } from '../shared/routes';
import { MESSAGE_HISTORY_TARGET } from './budgets';
import type { RoundTripRow } from './round-trips';
import type { ScaleResult } from './scale';
import type { ThroughputResult } from './throughput';
import { WARM_ADDED_TARGET_MS, type WarmResult } from './warm-cpu';

/** Tables for the terminal and for docs/PERFORMANCE.md, the target verdicts, and the cost model. */

import type { EventDeliveryResult } from './event-delivery';
import type { CostRow } from './cost-model';
import type { NoisyNeighbourResult } from './noisy-neighbour';

export interface BenchResults {
  date: string;
  machine: { cpu: string; cores: number; memoryGb: number; node: string; platform: string; load: number[] };
  command: string;
  durationSeconds: number;
  coldStart?: ColdStartResult;
  warmCpu?: WarmResult;
  roundTrips?: { rows: RoundTripRow[]; uncovered: string[] };
  scale?: ScaleResult;
  largeChannel?: LargeChannelResult;
  throughput?: ThroughputResult;
  eventDelivery?: EventDeliveryResult;
  boundedWork?: BoundedWorkResult;
  noisyNeighbour?: NoisyNeighbourResult;
  boundedEvents?: BoundedEventsResult;
  targets: Target[];
  costModel: CostRow[];
  errors: string[];
  /** Sections measured by later subset runs and merged in (bench/merge.ts): which, and each run's facts. */
  merged?: MergedRun[];
}

export interface MergedRun {
  sections: string[];
  date: string;
  command: string;
  durationSeconds: number;
  load: number[];
}

export interface Target {
  area: string;
  target: string;
  ok: boolean | 'not measured';
  detail: string;
}

/** Functions that write to the table (`tableActions` in shared/routes.ts): API routes by path, support functions by name. */
const writesTable = (path: string) =>
  API_ROUTES.some((route) => route.path === path && tableAccessOf(route) === 'write') ||
  Object.values(SUPPORT_FUNCTIONS).some((fn) => fn.name === path && tableAccessOf(fn) === 'write');

const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const ms = (value: number | undefined, digits = 1) => (value === undefined || !Number.isFinite(value) ? '–' : value.toFixed(digits));
const verdict = (ok: boolean | 'not measured') => (ok === 'not measured' ? 'n/a' : ok ? 'ok' : 'FAIL');

export interface Table {
  headers: string[];
  rows: string[][];
}

export function textTable({ headers, rows }: Table): string {
  const widths = headers.map((header, i) => Math.max(header.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (cell ?? '').padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(headers), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}

export function markdownTable({ headers, rows }: Table): string {
  const escape = (cell: string) => (cell ?? '').replace(/\|/g, '\\|');
  return [`| ${headers.join(' | ')} |`, `|${headers.map(() => '---').join('|')}|`, ...rows.map((row) => `| ${row.map(escape).join(' | ')} |`)].join('\n');
}

/** Which functions were measured with extra pairs for being close to the target. */
function borderlineNote(cold: ColdStartResult): string {
  const doubled = cold.rows.filter((row) => (row.pairs ?? cold.runs) > cold.runs);
  return doubled.length
    ? ` (${doubled.map((row) => `${row.name} ${row.pairs}`).join(', ')}: within ±${BORDERLINE_MARGIN} of the target, measured twice as often)`
    : '';
}

export function coldStartTable(result: ColdStartResult): Table {
  return {
    headers: [
      'function',
      'SDK clients (floor)',
      'bundle KB',
      'floor KB',
      '+KB over floor',
      'static files KB (first request)',
      'init CPU ms',
      'floor CPU ms',
      'CPU ×floor',
      'init wall ms',
      'floor wall ms',
      'wall ×floor',
      'verdict',
    ],
    rows: result.rows.map((row) => [
      row.name,
      (row.clients.join('+') || 'none') + (row.undeclaredClients.length ? ` (+${row.undeclaredClients.join('+')} undeclared)` : ''),
      kb(row.bytes),
      kb(row.floorBytes),
      kb(row.overFloorBytes),
      row.staticFileBytes ? kb(row.staticFileBytes) : '–',
      ms(row.initCpuMs),
      ms(row.floorInitCpuMs),
      row.initCpuRatio.toFixed(3),
      ms(row.initMs),
      ms(row.floorInitMs),
      row.initRatio.toFixed(3),
      row.bytesOk && row.initOk ? 'ok' : `FAIL${row.bytesOk ? '' : ' bytes'}${row.initOk ? '' : ' init'}`,
    ]),
  };
}

export function variantTable(result: ColdStartResult): Table {
  return {
    headers: ['function', 'format', 'bundle KB', 'deployed KB (deflated asset)', 'init CPU ms', 'CPU ×current', 'init wall ms', 'wall ×current'],
    rows: result.variants.map((row) => [
      row.function,
      row.label,
      kb(row.bytes),
      kb(row.deployedBytes),
      ms(row.initCpuMs),
      row.vsCurrentCpu.toFixed(3),
      ms(row.initMs),
      row.vsCurrent.toFixed(3),
    ]),
  };
}

export function warmTable(result: WarmResult): Table {
  return {
    headers: ['endpoint', 'case', 'stack CPU ms', 'floor CPU ms', 'added CPU ms', 'stack p90', 'floor p90', 'added wall ms', 'verdict'],
    rows: result.rows.map((row) => [
      row.path,
      row.status === 'measured' ? (row.note ?? '') : row.status,
      ms(row.stackMs, 3),
      row.floor === 'measured' ? ms(row.floorMs, 3) : row.floor,
      row.addedMs === undefined ? '–' : ms(row.addedMs, 3),
      ms(row.stackP90Ms, 3),
      ms(row.floorP90Ms, 3),
      row.addedWallMs === undefined ? '–' : ms(row.addedWallMs, 3),
      row.status === 'error' || row.floor === 'error'
        ? `error: ${row.error?.slice(0, 60)}`
        : row.addedMs === undefined
          ? row.status === 'no case'
            ? 'no case'
            : 'no floor'
          : row.addedMs <= WARM_ADDED_TARGET_MS && row.stackStatus === 200
            ? 'ok'
            : 'FAIL',
    ]),
  };
}

export function roundTripTable(rows: RoundTripRow[]): Table {
  return {
    headers: ['case', 'calls', 'budget', 'doc row (as written)', 'DynamoDB calls', 'Graph API calls (HTTP)', 'RRU', 'WRU', 'items read', 'KB read', 'verdict'],
    rows: rows.map((row) => [
      row.name,
      String(row.calls),
      String(row.budget),
      row.docNow === undefined ? `MISSING: "${row.docRow}"` : `${row.docRow}: ${row.docNow}`,
      row.commands.join(', '),
      row.graphCalls === undefined ? '–' : String(row.graphCalls),
      String(row.readUnits),
      String(row.writeUnits),
      String(row.itemsRead),
      kb(row.bytesRead),
      row.ok ? 'ok' : row.knownIssue ? 'FAIL (known)' : 'FAIL',
    ]),
  };
}

export function scaleTable(result: ScaleResult): Table {
  return {
    headers: [
      'contacts',
      'labels',
      'case',
      'calls',
      'each call (KB of items read)',
      'RRU',
      'WRU',
      'items read',
      'KB read',
      'index B/contact',
      'contact items',
      'total',
      'latency ms (local)',
    ],
    rows: result.rows.map((row) => [
      String(row.contacts),
      String(row.labels),
      `${row.path}: ${row.case}`,
      String(row.calls),
      row.perCall.join('; '),
      String(row.readUnits),
      String(row.writeUnits),
      String(row.itemsRead),
      kb(row.bytesRead),
      row.indexBytesPerContact === undefined ? '–' : row.indexBytesPerContact.toFixed(1),
      String(row.contactItemsRead),
      row.total === undefined ? '–' : String(row.total),
      ms(row.latencyMs),
    ]),
  };
}

/** Targets of a large channel (bulk import and one million contacts per channel). */
function largeChannelTargets(large: LargeChannelResult | undefined): Target[] {
  if (!large) return [];
  const targets: Target[] = [];
  for (const run of large.imports) {
    targets.push({
      area: 'large channel',
      target: `import of ${run.contacts} contacts: ≥ ${IMPORT_ROWS_PER_SECOND_TARGET} rows/s into the local store, ≤ ${IMPORT_WRU_TARGET} write units a new contact on average`,
      ok: run.rowsPerSecond >= IMPORT_ROWS_PER_SECOND_TARGET && run.writeUnitsPerNewContact <= IMPORT_WRU_TARGET && run.failed === 0,
      detail: `${run.rowsPerSecond.toFixed(0)} rows/s (${run.seconds.toFixed(0)} s), ${run.writeUnitsPerNewContact.toFixed(2)} WRU a new contact, ${run.created} created, ${run.failed} failed`,
    });
  }
  const reads = (contacts: number, prefix: string) => large.reads.find((read) => read.contacts === contacts && read.case.startsWith(prefix));
  for (const contacts of [...new Set(large.reads.map((read) => read.contacts))]) {
    const page1 = reads(contacts, 'page 1');
    if (page1)
      targets.push({
        area: 'large channel',
        target: `contacts/list page 1 with total at ${contacts} contacts: 2 calls, as at 1k`,
        ok: page1.calls <= 2 && page1.total === contacts,
        detail: `${page1.calls} calls, ${page1.readUnits} RRU, total ${page1.total}`,
      });
    // A deep page whose kept order is read again (after an erasure) is measured as a search is: time and memory.
    const readsIndex = (read: LargeChannelRead) => read.case.startsWith('search') || read.case.includes('read again');
    for (const deep of large.reads.filter((read) => read.contacts === contacts && read.case.startsWith('deep page') && !readsIndex(read)))
      targets.push({
        area: 'large channel',
        target: `${deep.case} at ${contacts} contacts: ≤ 3 table reads`,
        ok: deep.calls - 1 <= 3,
        detail: `${deep.calls - 1} reads + the limiter, ${deep.readUnits} RRU, ${deep.latencyMs.toFixed(0)} ms, peak heap +${deep.peakHeapMb.toFixed(0)} MB`,
      });
    for (const search of large.reads.filter((read) => read.contacts === contacts && readsIndex(read))) {
      targets.push({
        area: 'large channel',
        target: `${search.case} at ${contacts} contacts: ≤ ${SEARCH_MS_TARGET / 1000} s locally, peak heap ≤ ${SEARCH_HEAP_MB_TARGET} MB`,
        ok: search.status === 200 && search.latencyMs <= SEARCH_MS_TARGET && search.peakHeapMb <= SEARCH_HEAP_MB_TARGET,
        detail: `${search.latencyMs.toFixed(0)} ms, peak heap +${search.peakHeapMb.toFixed(0)} MB, ${search.calls} calls, ${search.readUnits} RRU (${search.kbRead.toFixed(0)} KB)`,
      });
    }
  }
  return targets;
}

const IMPORT_ROWS_PER_SECOND_TARGET = 1000;
const IMPORT_WRU_TARGET = 3;
const SEARCH_MS_TARGET = 2000;
const SEARCH_HEAP_MB_TARGET = 200;

export function largeChannelTables(result: LargeChannelResult): Table[] {
  return [
    {
      headers: ['contacts', 'import rows/s', 'seconds', 'created', 'failed', 'table calls', 'WRU', 'WRU a new contact', 'RRU'],
      rows: result.imports.map((run) =>
        [
          run.contacts,
          run.rowsPerSecond.toFixed(0),
          run.seconds.toFixed(0),
          run.created,
          run.failed,
          run.calls,
          run.writeUnits.toFixed(0),
          run.writeUnitsPerNewContact.toFixed(2),
          run.readUnits.toFixed(0),
        ].map(String),
      ),
    },
    {
      headers: ['contacts', 'contacts/list', 'calls', 'RRU', 'KB read', 'total', 'latency ms (local)', 'peak heap MB (above the request’s start)'],
      rows: result.reads.map((read) =>
        [
          read.contacts,
          read.case,
          read.calls,
          read.readUnits,
          read.kbRead.toFixed(0),
          read.total ?? '–',
          read.latencyMs.toFixed(0),
          read.peakHeapMb.toFixed(0),
        ].map(String),
      ),
    },
  ];
}

export function throughputTable(result: ThroughputResult): Table {
  return {
    headers: ['connections', 'seconds', 'requests', 'req/s', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms', 'non-2xx', 'errors', 'timeouts'],
    rows: [
      [
        result.connections,
        result.durationSeconds,
        result.requests,
        result.requestsPerSecond.toFixed(1),
        result.p50Ms,
        result.p90Ms,
        result.p99Ms,
        result.maxMs,
        result.non2xx,
        result.errors,
        result.timeouts,
      ].map(String),
    ],
  };
}

export function eventDeliveryTable(result: EventDeliveryResult): Table {
  return {
    headers: [
      'events',
      'delivered',
      'lost',
      'duplicates',
      'deliveries/s (end to end)',
      'deliveries/s (queued, deliverer alone)',
      'lost (queued)',
      'p50 ms',
      'p99 ms',
      'max ms',
    ],
    rows: [
      [
        result.events,
        result.delivered,
        result.lost,
        result.duplicates,
        result.deliveriesPerSecond.toFixed(1),
        result.queuedDeliveriesPerSecond.toFixed(1),
        result.queuedLost,
        result.p50Ms,
        result.p99Ms,
        result.maxMs,
      ].map(String),
    ],
  };
}

/** Issue 23's bounded-work targets: an import of repeats is one wave at ≤ 3 WRU a row; the content sweep keeps up with ≥ 100,000 messages an hour. */
export function boundedWorkTargets(result: BoundedWorkResult): Target[] {
  const { importRepeats: imported, contentSweep: sweep } = result;
  return [
    {
      area: 'bounded work',
      target: 'import of 1,000 repeats of one phone: one wave, ≤ 3 WRU a row',
      ok: imported.contacts === 1 && imported.statusChanges <= 1 && imported.writeUnitsPerRow <= 3,
      detail: `${imported.contacts} contact, ${imported.statusChanges} status change, ${imported.writeUnitsPerRow.toFixed(3)} WRU a row`,
    },
    {
      area: 'bounded work',
      target: 'content sweep ≥ 100,000 messages an hour locally',
      ok: sweep.blanked === sweep.messages && sweep.perHour >= 100_000,
      detail: `${sweep.blanked} of ${sweep.messages} blanked in one run, ${Math.round(sweep.perHour).toLocaleString('en-US')} an hour`,
    },
  ];
}

export function boundedEventsTargets(result: BoundedEventsResult): Target[] {
  const { redrive, laneBacklog: lane } = result;
  return [
    {
      area: 'bounded work',
      target: `re-drive with ${redrive.orphansPerShard.toLocaleString('en-US')} orphans in every shard: every due item re-driven in one pass`,
      ok: redrive.redriven === redrive.due && redrive.complete,
      detail: `${redrive.redriven} of ${redrive.due} in ${redrive.seconds.toFixed(1)} s`,
    },
    {
      area: 'bounded work',
      target: `deliverer with a ${lane.events.toLocaleString('en-US')}-event backlog on one lane: no invocation over its deadline, 0 lost, order kept`,
      ok: lane.overDeadline === 0 && lane.distinct === lane.events && lane.inOrder,
      detail: `${lane.distinct} of ${lane.events} delivered, ${lane.inOrder ? 'in order' : 'out of order'}, longest invocation ${(lane.longestInvocationMs / 1000).toFixed(1)} s of ${lane.budgetMs / 1000} s`,
    },
  ];
}

/** The event-delivery targets: ≥ 200 deliveries/s with none lost, p99 from state change to first attempt ≤ 1 s. */
export function eventDeliveryTargets(result: EventDeliveryResult): Target[] {
  return [
    {
      area: 'events',
      target: '≥ 200 deliveries/s to a local receiver, 0 lost',
      ok: result.queuedDeliveriesPerSecond >= 200 && result.lost === 0 && result.queuedLost === 0,
      detail: `deliverer ${result.queuedDeliveriesPerSecond.toFixed(1)}/s (${result.queuedLost} lost); end to end from signed webhooks ${result.deliveriesPerSecond.toFixed(1)}/s (${result.lost} lost of ${result.events})`,
    },
    {
      area: 'events',
      target: 'state change → first delivery attempt p99 ≤ 1 s (local)',
      ok: result.p99Ms <= 1000,
      detail: `p99 ${result.p99Ms} ms (p50 ${result.p50Ms} ms)`,
    },
  ];
}

export function targetTable(targets: Target[]): Table {
  return { headers: ['area', 'target', 'verdict', 'measured'], rows: targets.map((target) => [target.area, target.target, verdict(target.ok), target.detail]) };
}

/** Verdicts of the issue's targets from the measurements. */
export function evaluateTargets(results: Omit<BenchResults, 'targets' | 'costModel'>): Target[] {
  const targets: Target[] = [];
  const cold = results.coldStart;
  if (cold) {
    const slow = cold.rows.filter((row) => !row.initOk);
    const big = cold.rows.filter((row) => !row.bytesOk);
    const worstInit = [...cold.rows].sort((a, b) => b.initCpuRatio - a.initCpuRatio)[0];
    const worstBytes = [...cold.rows].sort((a, b) => b.overFloorBytes - a.overFloorBytes)[0];
    targets.push({
      area: 'cold start',
      target: `every function's init ≤ ${INIT_RATIO_TARGET}× its floor (CPU time from process start to handler ready)`,
      ok: slow.length === 0,
      detail: slow.length
        ? `over: ${slow.map((row) => `${row.name} ${row.initCpuRatio.toFixed(3)}× (wall ${row.initRatio.toFixed(3)}×, ${row.pairs ?? cold.runs} pairs)`).join(', ')}`
        : `worst ${worstInit.name} ${worstInit.initCpuRatio.toFixed(3)}× (wall ${worstInit.initRatio.toFixed(3)}×); ${cold.rows.length} functions, median of ${cold.runs} paired runs${borderlineNote(cold)}`,
    });
    targets.push({
      area: 'cold start',
      target: `every bundle ≤ floor + ${OVER_FLOOR_BYTES_TARGET / 1024} KB`,
      ok: big.length === 0,
      detail: big.length
        ? `over: ${big.map((row) => `${row.name} +${kb(row.overFloorBytes)} KB`).join(', ')}`
        : `largest ${worstBytes.name} +${kb(worstBytes.overFloorBytes)} KB`,
    });
    const undeclared = cold.rows.filter((row) => row.undeclaredClients.length);
    if (undeclared.length) {
      targets.push({
        area: 'cold start',
        target: 'bundles load only the SDK clients their route row declares',
        ok: false,
        detail: undeclared.map((row) => `${row.name}: ${row.undeclaredClients.join(', ')}`).join('; '),
      });
    }
  }
  const warm = results.warmCpu;
  if (warm) {
    const measured = warm.rows.filter((row) => row.addedMs !== undefined);
    // A case must answer 200: an error answer skips the work the endpoint exists for, so its time says nothing.
    const over = measured.filter((row) => row.addedMs! > WARM_ADDED_TARGET_MS);
    const refused = measured.filter((row) => row.stackStatus !== 200);
    const failed = [...over, ...refused];
    const uncovered = warm.rows.filter((row) => row.addedMs === undefined);
    const worst = [...measured].sort((a, b) => b.addedMs! - a.addedMs!)[0];
    targets.push({
      area: 'warm CPU',
      target: `the stack adds ≤ ${WARM_ADDED_TARGET_MS} ms per request over the bare floor (median CPU time)`,
      ok: measured.length === 0 ? 'not measured' : failed.length === 0,
      detail: `${over.length ? `over: ${over.map((row) => `${row.path} +${ms(row.addedMs, 3)} ms`).join(', ')}; ` : ''}${refused.length ? `case not answered 200: ${refused.map((row) => `${row.path} ${row.stackStatus}`).join(', ')}; ` : ''}worst ${worst ? `${worst.path} +${ms(worst.addedMs, 3)} ms` : '–'}; ${measured.length} endpoints measured${uncovered.length ? `; not yet: ${uncovered.map((row) => `${row.path} (${row.status === 'measured' ? row.floor : row.status})`).join(', ')}` : ''}`,
    });
  }
  const trips = results.roundTrips;
  if (trips) {
    const lists = trips.rows.filter(
      (row) => /\/list$/.test(row.path) && row.path !== MESSAGE_HISTORY_TARGET.path && !/deep page|search|after a label change/.test(row.name),
    );
    const overList = lists.filter((row) => row.calls > 2);
    targets.push({
      area: 'round trips',
      target: 'a list endpoint: ≤ 2 DynamoDB calls with the authorizer warm (limiter + one query page)',
      ok: overList.length === 0,
      detail: overList.length
        ? `over: ${overList.map((row) => `${row.name} ${row.calls}`).join(', ')}`
        : lists.map((row) => `${row.path} ${row.calls}`).join(', '),
    });
    const history = trips.rows.filter((row) => row.path === MESSAGE_HISTORY_TARGET.path);
    const historyBudget = (row: RoundTripRow) => (/by contactId/.test(row.name) ? MESSAGE_HISTORY_TARGET.byContactId : MESSAGE_HISTORY_TARGET.byPhoneNumber);
    const overHistory = history.filter((row) => row.calls > historyBudget(row));
    targets.push({
      area: 'round trips',
      target: MESSAGE_HISTORY_TARGET.target,
      ok: history.length ? overHistory.length === 0 : 'not measured',
      detail: history.length ? history.map((row) => `${row.name} ${row.calls} (≤ ${historyBudget(row)})`).join(', ') : 'no scenario yet',
    });
    const status = trips.rows.find((row) => row.path === 'chat/message/status');
    targets.push({
      area: 'round trips',
      target: 'chat/message/status: exactly 1 pointer read + the limiter',
      ok: status ? status.calls === 2 && status.commands.filter((command) => command.startsWith('Get')).length === 1 : 'not measured',
      detail: status ? status.commands.join(', ') : 'no such endpoint yet',
    });
    const writes = trips.rows.filter((row) => writesTable(row.path));
    const overWrites = writes.filter((row) => !row.ok);
    targets.push({
      area: 'round trips',
      target: 'every write endpoint (and the webhook, the automation runner and re-drive) keeps the budget written in docs/ARCHITECTURE.md',
      ok: overWrites.length === 0,
      detail: overWrites.length
        ? overWrites.map((row) => `${row.name}: ${row.calls} vs ${row.docNow ?? 'no row'}${row.knownIssue ? ` (${row.knownIssue})` : ''}`).join('; ')
        : `${writes.length} write cases within budget`,
    });
    const undocumented = trips.rows.filter((row) => row.docNow === undefined);
    const wrongDoc = trips.rows.filter((row) => row.docNow !== undefined && row.docNow !== row.docBudget);
    targets.push({
      area: 'round trips',
      target: 'every measured case has its budget row in docs/ARCHITECTURE.md',
      ok: undocumented.length === 0 && wrongDoc.length === 0,
      detail:
        [
          undocumented.length ? `missing rows: ${undocumented.map((row) => row.docRow).join(', ')}` : '',
          wrongDoc.length ? `changed rows: ${wrongDoc.map((row) => `${row.docRow}: "${row.docNow}"`).join(', ')}` : '',
        ]
          .filter(Boolean)
          .join('; ') || `${trips.rows.length} cases`,
    });
    targets.push({
      area: 'round trips',
      target: 'every function has a round-trip scenario',
      ok: trips.uncovered.length ? 'not measured' : true,
      detail: trips.uncovered.length
        ? `no scenario yet: ${trips.uncovered.join(', ')}`
        : `every function of API_ROUTES and SUPPORT_FUNCTIONS (${new Set(trips.rows.map((row) => row.path)).size} functions, ${trips.rows.length} cases)`,
    });
    const scans = [...trips.rows, ...(results.scale?.rows ?? [])].filter((row) => row.commands.some((command) => command.startsWith('Scan')));
    targets.push({
      area: 'round trips',
      target: 'no endpoint ever Scans',
      ok: scans.length === 0,
      detail: scans.length ? scans.map((row) => ('name' in row ? row.name : row.case)).join(', ') : 'no Scan in any measured request',
    });
  }
  for (const check of results.scale?.checks ?? []) targets.push({ area: 'scale', target: check.check, ok: check.ok, detail: check.detail });
  targets.push(...largeChannelTargets(results.largeChannel));
  const tp = results.throughput;
  if (tp) {
    targets.push({
      area: 'throughput',
      target: `local stack under load (${tp.connections} connections, reads + writes): zero errors`,
      ok: tp.non2xx === 0 && tp.errors === 0 && tp.timeouts === 0,
      detail: `${tp.requestsPerSecond.toFixed(0)} req/s, p50 ${tp.p50Ms} ms, p99 ${tp.p99Ms} ms, ${tp.non2xx} non-2xx, ${tp.errors} errors`,
    });
  }
  return targets;
}

export { costModel, costModelNote, costTable, extrasPerMillion, PRICES, type CostRow } from './cost-model';
