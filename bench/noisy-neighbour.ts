import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventIdTime } from '../shared/events/event-types';
import { API_BASE_PATH } from '../shared/routes';
import { percentile, postSignedInbound } from './event-delivery';
import type { Table, Target } from './report';
import { startStack } from './throughput';

/**
 * 8. A noisy neighbour on the local stack (issue 23): workspace B's time from a state
 * change to the first attempt of its `message.received` delivery, first with nothing
 * else going on, then while workspace A floods the pipeline — 10 subscriptions to every
 * event type at receivers that never answer (each attempt waits out its 10 s timeout),
 * a contacts/import of `importRows` rows with `status: opted_out` (one event each, ten
 * deliveries each), and A's own inbound traffic all the while. B sends the same paced
 * messages in both phases; the target is a ratio of the two p99s within one run, not a
 * duration.
 */

export interface NoisyNeighbourResult {
  /** B's messages in each phase. */
  messages: number;
  importRows: number;
  hangingReceivers: number;
  quietP50Ms: number;
  quietP99Ms: number;
  floodP50Ms: number;
  floodP99Ms: number;
  /** B's messages not delivered within the phase's wait. */
  lost: number;
  /** Attempts A's receivers got during the flood phase (each left hanging). */
  floodAttempts: number;
  /** A's inbound messages sent during the flood phase. */
  floodInbound: number;
}

const HANGING_RECEIVERS = 10;
/** B's pace: one message every this many ms, in both phases. */
const PACE_MS = 50;

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

export async function noisyNeighbour(options: {
  messages: number;
  importRows: number;
  bundlesBuilt: boolean;
  log: (line: string) => void;
}): Promise<NoisyNeighbourResult> {
  const dataDir = await mkdtemp(join(tmpdir(), 'wsapi-bench-noisy-'));
  // B's receiver answers at once and notes when each event first arrived.
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
  const { child, url } = await startStack(dataDir, options.bundlesBuilt);
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
    let sequence = 0;
    /** B's paced messages: each one's time to its first attempt (ms), undefined when it did not arrive in time. */
    const phase = async (): Promise<Array<number | undefined>> => {
      const before = new Set(arrivals.keys());
      for (let i = 0; i < options.messages; i++) {
        const sent = Date.now();
        const answer = await postSignedInbound(url, demo.chatNetwork.appSecret, bChannel, `1415558${String(sequence++).padStart(4, '0')}`, `hello ${i}`);
        if (answer.status !== 200) throw new Error(`the chat-network webhook answered ${answer.status}`);
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, PACE_MS - (Date.now() - sent))));
      }
      const deadline = Date.now() + 60_000;
      const mine = () => [...arrivals.entries()].filter(([id]) => !before.has(id));
      while (mine().length < options.messages && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      const latencies: Array<number | undefined> = mine().map(([id, at]) => at - eventIdTime(id));
      return [...latencies, ...Array<undefined>(options.messages - latencies.length).fill(undefined)];
    };
    options.log('noisy neighbour: the quiet phase');
    const quietRun = await phase();
    options.log('noisy neighbour: the flood phase');
    const rows = Array.from({ length: options.importRows }, (_, i) => ({ phoneNumber: `1415559${String(i).padStart(4, '0')}`, status: 'opted_out' }));
    const imported = call(url, adminOf(a), 'contacts/import', { channelId: aChannel.id, contacts: rows });
    // A's inbound traffic all through the phase.
    sendingForA = true;
    let floodInbound = 0;
    const aTraffic = (async () => {
      while (sendingForA) {
        await postSignedInbound(url, demo.chatNetwork.appSecret, aChannel, `1415557${String(floodInbound++ % 10_000).padStart(4, '0')}`, 'noise');
        await new Promise((resolve) => setTimeout(resolve, PACE_MS));
      }
    })();
    // B starts once A's flood holds its receivers.
    const floodDeadline = Date.now() + 60_000;
    while (floodAttempts < HANGING_RECEIVERS && Date.now() < floodDeadline) await new Promise((resolve) => setTimeout(resolve, 50));
    const floodRun = await phase();
    sendingForA = false;
    await aTraffic;
    options.log(`noisy neighbour: the import answered ${(await imported).status}`);
    const delivered = (run: Array<number | undefined>) => run.filter((ms): ms is number => ms !== undefined).sort((x, y) => x - y);
    const [quietMs, floodMs] = [delivered(quietRun), delivered(floodRun)];
    return {
      messages: options.messages,
      importRows: options.importRows,
      hangingReceivers: HANGING_RECEIVERS,
      quietP50Ms: percentile(quietMs, 50),
      quietP99Ms: percentile(quietMs, 99),
      floodP50Ms: percentile(floodMs, 50),
      floodP99Ms: percentile(floodMs, 99),
      lost: 2 * options.messages - quietMs.length - floodMs.length,
      floodAttempts,
      floodInbound,
    };
  } finally {
    sendingForA = false;
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    quiet.server.close();
    hanging.server.closeAllConnections();
    hanging.server.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

export function noisyNeighbourTable(result: NoisyNeighbourResult): Table {
  return {
    headers: [
      'B messages a phase',
      "A's hanging receivers",
      "A's import rows",
      'quiet p50 ms',
      'quiet p99 ms',
      'flood p50 ms',
      'flood p99 ms',
      'flood/quiet p99',
      'lost',
      "A's attempts (flood)",
    ],
    rows: [
      [
        result.messages,
        result.hangingReceivers,
        result.importRows,
        result.quietP50Ms,
        result.quietP99Ms,
        result.floodP50Ms,
        result.floodP99Ms,
        (result.floodP99Ms / Math.max(1, result.quietP99Ms)).toFixed(2),
        result.lost,
        result.floodAttempts,
      ].map(String),
    ],
  };
}

/** Issue 23's noisy-neighbour target: B's p99 time to first attempt under A's flood ≤ 1.5× its quiet p99, none lost. */
export function noisyNeighbourTargets(result: NoisyNeighbourResult): Target[] {
  const ratio = result.floodP99Ms / Math.max(1, result.quietP99Ms);
  return [
    {
      area: 'isolation',
      target: "noisy neighbour: B's p99 state change → first attempt with A flooding ≤ 1.5× B's quiet p99, none lost",
      ok: ratio <= 1.5 && result.lost === 0,
      detail: `flood p99 ${result.floodP99Ms} ms / quiet p99 ${result.quietP99Ms} ms = ${ratio.toFixed(2)}× (${result.lost} lost; A: ${result.hangingReceivers} hanging receivers, ${result.importRows}-row import, ${result.floodInbound} inbound, ${result.floodAttempts} attempts)`,
    },
  ];
}
