import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DELIVERER_TRACE_PREFIX, type DelivererBatchRecord } from '../scripts/local/deliverer-loop';
import { eventIdTime } from '../shared/events/event-types';
import { API_BASE_PATH } from '../shared/routes';
import { percentile, postSignedInbound } from './event-delivery';
import type { Table, Target } from './report';
import { startStack } from './throughput';

/**
 * 8. A noisy neighbour on the local stack (issue 23): workspace B's time from a state
 * change (the event id's time) to the first byte of its `message.received` delivery at
 * B's receiver, with nothing else going on ("quiet") and while workspace A floods
 * ("flood"): 10 subscriptions to every event type at receivers that never answer (each
 * attempt waits out its 10 s timeout), a contacts/import of `importRows` rows changing
 * every row's `status` (one event each, ten deliveries each; A sends the rows the call
 * answers as `pending` again until none is left, as a client would), and A's own inbound
 * traffic all the while. B sends the same paced messages in both.
 *
 * The two conditions alternate in `rounds` rounds (quiet, then flood, then a wait until
 * the stack's CPU is idle again, so a flood's tail never lands in the next quiet phase),
 * so that the machine's own load, which moves over minutes, weighs on both alike; each
 * condition's p50 and p99 are over all its rounds' messages. The target is the ratio of
 * the two p99s, not a duration. Beside it: the machine's load average at each phase, the
 * stack's CPU time per phase (from /proc: what it cost, whoever else had the cores), and
 * where B's events waited, from the local deliverer's batch trace.
 */

/** One condition's figures over all its rounds. */
export interface PhaseFigures {
  /** B's messages sent, and delivered in time. */
  sent: number;
  delivered: number;
  p50Ms: number;
  p99Ms: number;
  /** The same latencies counted in the stack's CPU time spent meanwhile (p50, p99): figures the machine's other load does not stretch. */
  cpuP50Ms: number;
  cpuP99Ms: number;
  /** The 1-minute load average at the start of each of its phases. */
  loads: number[];
  /** The stack process's CPU time (user + system) over its phases, and their wall time. */
  stackCpuMs: number;
  wallMs: number;
  /** B's wait in the deliverer's queue before a batch took it (p50 / p99 ms): its event (the fan-out), then its lane's wake-up (the attempt). */
  eventWaitMs: [number, number];
  wakeUpWaitMs: [number, number];
  /** B's batches' run time (p50 / p99 ms): fan-outs, then attempts (which end after the receiver answers). */
  fanOutMs: [number, number];
  attemptMs: [number, number];
  /** The share of B's batches taken while another workspace's batches were in flight. */
  takenBesideOthers: number;
}

export interface NoisyNeighbourResult {
  rounds: number;
  /** B's messages in each phase (so each condition has rounds × this). */
  messages: number;
  importRows: number;
  hangingReceivers: number;
  quiet: PhaseFigures;
  flood: PhaseFigures;
  /** A's import calls (each answered within its deadline, the rest `pending`), and those refused by its rate limit. */
  importCalls: number;
  importRefused: number;
  /** A's import calls answered 5xx (sent again). */
  importFailed: number;
  /** Attempts A's receivers got during the run (each left hanging). */
  floodAttempts: number;
  /** A's inbound messages sent during the flood phases. */
  floodInbound: number;
}

const HANGING_RECEIVERS = 10;
/** B's pace: one message every this many ms, in both phases. */
const PACE_MS = 50;
/** How long a phase waits for B's deliveries, and the stack for idleness, at most. */
const PHASE_WAIT_MS = 120_000;

interface Listening {
  server: Server;
  url: string;
}

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Listening> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function call(url: string, apiKey: string, path: string, params: Record<string, unknown>): Promise<Response> {
  return fetch(`${url}${API_BASE_PATH}/${path}`, {
    method: 'POST',
    headers: { 'X-API-Key': apiKey, 'Content-Type': 'application/json' },
    body: JSON.stringify(params),
  });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A process's CPU time so far (user + system, ms), from /proc (Linux); 0 where there is none. */
async function cpuMs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime, the 14th and 15th fields, in clock ticks (100 a second on Linux).
  return (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) * 10;
}

/** Waits until the process uses under a tenth of a core over a second (its queues drained), or PHASE_WAIT_MS. */
async function idle(pid: number): Promise<void> {
  const deadline = Date.now() + PHASE_WAIT_MS;
  while (Date.now() < deadline) {
    const before = await cpuMs(pid);
    await pause(1_000);
    if ((await cpuMs(pid)) - before < 100) return;
  }
}

/**
 * The stack's CPU time as it went: a reading every 50 ms, so that the CPU the stack spent
 * while one of B's events waited can be looked up (`between`) — a latency the machine's
 * other load does not stretch, where a wall-clock one grows with every process beside it.
 */
function cpuTimeline(pid: number) {
  const readings: Array<[number, number]> = [];
  const timer = setInterval(() => void cpuMs(pid).then((cpu) => readings.push([Date.now(), cpu])), 50);
  const at = (time: number) => {
    let low = 0;
    let high = readings.length - 1;
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      if (readings[middle][0] <= time) low = middle;
      else high = middle - 1;
    }
    return readings[low]?.[1] ?? 0;
  };
  return { between: (from: number, to: number) => at(to) - at(from), stop: () => clearInterval(timer) };
}

const pair = (sorted: number[]): [number, number] => [percentile(sorted, 50), percentile(sorted, 99)];
const ascending = (values: number[]) => [...values].sort((x, y) => x - y);

/** One phase's raw samples, gathered into a condition's figures when the run ends. */
interface PhaseSamples {
  sent: number;
  latencies: number[];
  /** The stack's CPU time spent while each of them waited. */
  cpuLatencies: number[];
  load: number;
  cpuMs: number;
  wallMs: number;
  batches: DelivererBatchRecord[];
}

function figures(phases: PhaseSamples[]): PhaseFigures {
  const batches = phases.flatMap((phase) => phase.batches);
  const waits = (kind: string) =>
    ascending(batches.flatMap((batch) => batch.messages.filter((message) => message.kind === kind).map((message) => message.waitedMs)));
  const runs = (kind: string) => ascending(batches.filter((batch) => batch.messages.some((message) => message.kind === kind)).map((batch) => batch.handledMs));
  const latencies = ascending(phases.flatMap((phase) => phase.latencies));
  return {
    sent: phases.reduce((sum, phase) => sum + phase.sent, 0),
    delivered: latencies.length,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    cpuP50Ms: percentile(ascending(phases.flatMap((phase) => phase.cpuLatencies)), 50),
    cpuP99Ms: percentile(ascending(phases.flatMap((phase) => phase.cpuLatencies)), 99),
    loads: phases.map((phase) => phase.load),
    stackCpuMs: phases.reduce((sum, phase) => sum + phase.cpuMs, 0),
    wallMs: phases.reduce((sum, phase) => sum + phase.wallMs, 0),
    eventWaitMs: pair(waits('event')),
    wakeUpWaitMs: pair(waits('lane')),
    fanOutMs: pair(runs('event')),
    attemptMs: pair(runs('lane')),
    takenBesideOthers: batches.length === 0 ? 0 : batches.filter((batch) => batch.othersInFlight > 0).length / batches.length,
  };
}

export async function noisyNeighbour(options: {
  rounds: number;
  messages: number;
  importRows: number;
  bundlesBuilt: boolean;
  log: (line: string) => void;
}): Promise<NoisyNeighbourResult> {
  const dataDir = await mkdtemp(join(tmpdir(), 'wsapi-bench-noisy-'));
  // B's receiver answers at once and notes when each event's first request arrived (its headers: the first byte the service sent).
  const arrivals = new Map<string, number>();
  const quiet = await listen((req, res) => {
    const id = String(req.headers['webhook-id']);
    if (!arrivals.has(id)) arrivals.set(id, Date.now());
    req.resume();
    req.on('end', () => res.writeHead(204).end());
  });
  // A's receivers never answer.
  let floodAttempts = 0;
  const hanging = await listen((req) => {
    floodAttempts++;
    req.resume();
  });
  process.env.LOCAL_DELIVERER_TRACE = '1';
  const { child, url } = await startStack(dataDir, options.bundlesBuilt).finally(() => delete process.env.LOCAL_DELIVERER_TRACE);
  const pid = child.pid!;
  const cpu = cpuTimeline(pid);
  // The deliverer's batch trace, one line each (scripts/local/stack.ts).
  const batches: DelivererBatchRecord[] = [];
  let partial = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop()!;
    for (const line of lines) if (line.startsWith(DELIVERER_TRACE_PREFIX)) batches.push(JSON.parse(line.slice(DELIVERER_TRACE_PREFIX.length)));
  });
  let sendingForA = false;
  try {
    const demo = JSON.parse(await readFile(join(dataDir, 'demo.json'), 'utf8'));
    const adminOf = (workspace: { keys: Array<{ role: string; apiKey: string }> }) => workspace.keys.find((key) => key.role === 'admin')!.apiKey;
    const [b, a] = demo.workspaces;
    const bChannel = b.channels[0];
    const aChannel = a.channels[0];
    const subscribed = await call(url, adminOf(b), 'webhooks/manage', { channelId: bChannel.id, url: `${quiet.url}/b`, events: ['message.received'] });
    if (subscribed.status !== 200) throw new Error(`webhooks/manage answered ${subscribed.status}`);
    for (let i = 0; i < HANGING_RECEIVERS; i++) {
      const created = await call(url, adminOf(a), 'webhooks/manage', { channelId: aChannel.id, url: `${hanging.url}/a${i}`, events: ['*'] });
      if (created.status !== 200) throw new Error(`webhooks/manage answered ${created.status} for A's subscription ${i}`);
    }
    // The stack loads a route's bundle on its first request (a Lambda's cold start): contacts/import's now, with a
    // call it refuses (no rows), not on A's first import in B's first flood phase.
    await (await call(url, adminOf(a), 'contacts/import', { channelId: aChannel.id, contacts: [] })).arrayBuffer();
    let sequence = 0;
    /** B's paced messages, and each one's time to its first attempt (ms) when it arrived in time; with the phase's load, CPU and B's batches. */
    const phase = async (): Promise<PhaseSamples> => {
      const before = new Set(arrivals.keys());
      const [load, cpuBefore, startedAt, batchesBefore] = [loadavg()[0], await cpuMs(pid), Date.now(), batches.length];
      for (let i = 0; i < options.messages; i++) {
        const sent = Date.now();
        const answer = await postSignedInbound(url, demo.chatNetwork.appSecret, bChannel, `1415558${String(sequence++).padStart(4, '0')}`, `hello ${i}`);
        if (answer.status !== 200) throw new Error(`the chat-network webhook answered ${answer.status}`);
        await pause(Math.max(0, PACE_MS - (Date.now() - sent)));
      }
      const deadline = Date.now() + PHASE_WAIT_MS;
      const mine = () => [...arrivals.entries()].filter(([id]) => !before.has(id));
      while (mine().length < options.messages && Date.now() < deadline) await pause(50);
      return {
        sent: options.messages,
        latencies: mine().map(([id, at]) => at - eventIdTime(id)),
        cpuLatencies: mine().map(([id, at]) => cpu.between(eventIdTime(id), at)),
        load,
        cpuMs: (await cpuMs(pid)) - cpuBefore,
        wallMs: Date.now() - startedAt,
        batches: batches.slice(batchesBefore).filter((batch) => batch.workspace === b.id),
      };
    };
    let importCalls = 0;
    let importRefused = 0;
    let importFailed = 0;
    /** A's import of the round's rows, the `pending` rows sent again until none is left. */
    const importAll = async (status: string) => {
      let rows = Array.from({ length: options.importRows }, (_, i) => ({ phoneNumber: `1415559${String(i).padStart(4, '0')}`, status }));
      while (rows.length > 0) {
        importCalls++;
        const answer = await call(url, adminOf(a), 'contacts/import', { channelId: aChannel.id, contacts: rows });
        if (answer.status === 429) {
          importRefused++;
          await pause(1_000 * Number(answer.headers.get('retry-after') ?? 1));
          continue;
        }
        if (answer.status >= 500) {
          // Sent again, as a client would (what it applied is not applied twice); counted.
          importFailed++;
          await pause(1_000);
          continue;
        }
        if (answer.status !== 200) throw new Error(`contacts/import answered ${answer.status}`);
        const { data } = (await answer.json()) as { data: { pending: number[] } };
        rows = data.pending.map((index) => rows[index]);
      }
    };
    let floodInbound = 0;
    const flood = async (round: number): Promise<PhaseSamples> => {
      // Every row's status changes each round: opted out, then active again, and so on.
      // Its failure is taken up when the phase ends, not left unhandled meanwhile.
      const imported = importAll(round % 2 === 0 ? 'opted_out' : 'active').then(
        () => undefined,
        (error: unknown) => error,
      );
      sendingForA = true;
      const aTraffic = (async () => {
        while (sendingForA) {
          await postSignedInbound(url, demo.chatNetwork.appSecret, aChannel, `1415557${String(floodInbound++ % 10_000).padStart(4, '0')}`, 'noise');
          await pause(PACE_MS);
        }
      })();
      // B starts once A's flood holds its receivers (the first round; later, their breakers are open and A's lanes park).
      const floodDeadline = Date.now() + PHASE_WAIT_MS;
      while (floodAttempts < HANGING_RECEIVERS && Date.now() < floodDeadline) await pause(50);
      const samples = await phase();
      sendingForA = false;
      await aTraffic;
      const importError = await imported;
      if (importError) throw importError;
      return samples;
    };
    const quietPhases: PhaseSamples[] = [];
    const floodPhases: PhaseSamples[] = [];
    for (let round = 0; round < options.rounds; round++) {
      options.log(`noisy neighbour: round ${round + 1} of ${options.rounds}, quiet`);
      quietPhases.push(await phase());
      options.log(`noisy neighbour: round ${round + 1} of ${options.rounds}, flood`);
      floodPhases.push(await flood(round));
      await idle(pid);
    }
    return {
      rounds: options.rounds,
      messages: options.messages,
      importRows: options.importRows,
      hangingReceivers: HANGING_RECEIVERS,
      quiet: figures(quietPhases),
      flood: figures(floodPhases),
      importCalls,
      importRefused,
      importFailed,
      floodAttempts,
      floodInbound,
    };
  } finally {
    sendingForA = false;
    cpu.stop();
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    quiet.server.close();
    hanging.server.closeAllConnections();
    hanging.server.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const ms = ([p50, p99]: [number, number]) => `${Math.round(p50)} / ${Math.round(p99)}`;
const loads = (values: number[]) => `${Math.min(...values).toFixed(1)}–${Math.max(...values).toFixed(1)}`;

/** One row per condition: B's latencies, where its events waited, the machine's load and the stack's CPU. */
export function noisyNeighbourTable(result: NoisyNeighbourResult): Table {
  const row = (name: string, phase: PhaseFigures) => [
    name,
    `${phase.delivered}/${phase.sent}`,
    String(phase.p50Ms),
    String(phase.p99Ms),
    `${phase.cpuP50Ms} / ${phase.cpuP99Ms}`,
    ms(phase.eventWaitMs),
    ms(phase.fanOutMs),
    ms(phase.wakeUpWaitMs),
    ms(phase.attemptMs),
    `${Math.round(phase.takenBesideOthers * 100)} %`,
    loads(phase.loads),
    (phase.stackCpuMs / Math.max(1, phase.wallMs)).toFixed(2),
    String(Math.round(phase.stackCpuMs / Math.max(1, phase.delivered))),
  ];
  return {
    headers: [
      `B (${result.rounds} rounds × ${result.messages})`,
      'delivered',
      'p50 ms',
      'p99 ms',
      'in stack CPU ms p50/p99',
      'event wait p50/p99 ms',
      'fan-out batch p50/p99 ms',
      'wake-up wait p50/p99 ms',
      'attempt batch p50/p99 ms',
      'B batches beside A',
      'load (1 min)',
      'stack CPU (cores)',
      'stack CPU ms per B delivery',
    ],
    rows: [row('quiet', result.quiet), row('flood', result.flood)],
  };
}

const lost = (result: NoisyNeighbourResult) => result.quiet.sent - result.quiet.delivered + result.flood.sent - result.flood.delivered;

/** Issue 23's noisy-neighbour target: B's p99 time to first attempt under A's flood ≤ 1.5× its quiet p99 in the same run, none lost. */
export function noisyNeighbourTargets(result: NoisyNeighbourResult): Target[] {
  const ratio = result.flood.p99Ms / Math.max(1, result.quiet.p99Ms);
  return [
    {
      area: 'isolation',
      target: "noisy neighbour: B's p99 event → first byte at its receiver with A flooding ≤ 1.5× B's quiet p99 (interleaved rounds), none lost",
      ok: ratio <= 1.5 && lost(result) === 0,
      detail:
        `flood p99 ${result.flood.p99Ms} ms / quiet p99 ${result.quiet.p99Ms} ms = ${ratio.toFixed(2)}× ` +
        `(p50 ${result.flood.p50Ms} / ${result.quiet.p50Ms} ms; in the stack's CPU time p99 ${result.flood.cpuP99Ms} / ${result.quiet.cpuP99Ms} ms = ${(result.flood.cpuP99Ms / Math.max(1, result.quiet.cpuP99Ms)).toFixed(2)}×; ${result.quiet.sent} samples each; load ${loads([...result.quiet.loads, ...result.flood.loads])}; ${lost(result)} lost; ` +
        `A: ${result.hangingReceivers} hanging receivers, ${result.importRows}-row import a round in ${result.importCalls} calls (${result.importRefused} refused, ${result.importFailed} answered 5xx), ${result.floodInbound} inbound, ${result.floodAttempts} attempts)`,
    },
  ];
}
