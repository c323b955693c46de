/**
 * Warm per-request CPU, in its own process (run by warm-cpu.ts with stdout discarded:
 * the handlers' JSON log and metric lines go there, as in Lambda). Every endpoint of
 * the route table with a case is called through its full middy stack, and its floor (a
 * bare handler, bench/floors.ts) with the same calls, interleaved, with the document
 * client answered in-process from canned items (and Secrets Manager, SQS and the chat
 * network from canned answers, bench/canned-services.ts). Before timing, one request of
 * each is traced: a floor whose calls differ from its stack's is reported as an error,
 * not timed. Each request's CPU time (process user + system, which other processes
 * cannot inflate) and wall time are recorded. Results go back over IPC.
 */
import { join } from 'node:path';
import { ROOT } from '../infra/bundles';
import { API_ROUTES } from '../shared/routes';
import { installCannedServices } from './canned-services';
import { CannedTable } from './canned-table';
import { lambdaContext, proxyEvent, type ProxyHandler } from './events';
import { benchChannelItems, BENCH_TENANT, CHAT_CONTACT, contactPhone } from './fixtures';
import { caseOf, floorOf } from './floors';
import { median, quantile } from './stats';

const { db } = await import('../shared/data/client');
const { hashApiKey } = await import('../shared/auth/api-keys');

const samples = Number(process.env.BENCH_WARM_SAMPLES ?? 1500);
const warmup = Number(process.env.BENCH_WARM_WARMUP ?? 500);

const table = new CannedTable([
  ...benchChannelItems(),
  {
    pk: `APIKEY#${hashApiKey(BENCH_TENANT.apiKey)}`,
    sk: 'APIKEY',
    keyHash: hashApiKey(BENCH_TENANT.apiKey),
    keyId: BENCH_TENANT.keyId,
    workspaceId: BENCH_TENANT.workspaceId,
    userId: BENCH_TENANT.userId,
    role: 'admin',
    revoked: false,
  },
]);
const mock = table.install(db);
const services = installCannedServices({ waId: contactPhone(CHAT_CONTACT) });
/** The mocks record every call; forgetting them now and then keeps their memory from growing into the timings. */
const forgetCalls = () => {
  mock.resetHistory();
  services.resetHistory();
};

const principal = {
  workspaceId: BENCH_TENANT.workspaceId,
  userId: BENCH_TENANT.userId,
  keyId: BENCH_TENANT.keyId,
  role: BENCH_TENANT.role,
  channelIds: [BENCH_TENANT.channelId],
};

export interface WarmRow {
  path: string;
  note?: string;
  status: 'measured' | 'no case' | 'error';
  error?: string;
  stackStatus?: number;
  floorStatus?: number;
  /** Per-request CPU time (process user + system), median and p90: the verdict's measure. */
  stackMs?: number;
  stackP90Ms?: number;
  floorMs?: number;
  floorP90Ms?: number;
  addedMs?: number;
  /** The same from wall-clock time (inflated when other processes compete for the CPU). */
  stackWallMs?: number;
  floorWallMs?: number;
  addedWallMs?: number;
  floor: 'measured' | 'no floor' | 'error';
  /** The calls one warm request makes (DynamoDB command and key kind, then the other services): the same for stack and floor. */
  calls?: string[];
}

type Floor = (event: ReturnType<typeof proxyEvent>) => Promise<{ statusCode: number }>;

async function time(run: () => Promise<unknown>, cpu: number[], wall: number[]) {
  const startedWall = performance.now();
  const startedCpu = process.cpuUsage();
  await run();
  const used = process.cpuUsage(startedCpu);
  wall.push(performance.now() - startedWall);
  cpu.push((used.user + used.system) / 1000);
}

/** What one request calls: each DynamoDB command with the kind of key it names, then Secrets Manager, SQS and chat-network calls. */
async function callsOf(run: () => Promise<unknown>): Promise<string[]> {
  forgetCalls();
  await run();
  const dynamo = mock.calls().map((call) => {
    const command = call.args[0] as { constructor: { name: string }; input: Record<string, unknown> };
    const input = command.input as {
      Key?: { sk: string };
      Item?: { sk: string };
      RequestItems?: Record<string, { Keys: unknown[] }>;
      ExpressionAttributeValues?: Record<string, unknown>;
    };
    const sk = input.Key?.sk ?? input.Item?.sk ?? input.ExpressionAttributeValues?.[':prefix'] ?? '';
    const batch = input.RequestItems ? `${Object.values(input.RequestItems).reduce((total, request) => total + (request.Keys?.length ?? 0), 0)} keys` : '';
    return [command.constructor.name.replace(/Command$/, ''), String(sk).split('#')[0], batch].filter(Boolean).join(' ');
  });
  const { secrets, sqs, graph } = services.counts();
  forgetCalls();
  return [
    ...dynamo,
    ...(secrets ? [`SecretsManager x${secrets}`] : []),
    ...(sqs ? [`SQS SendMessage x${sqs}`] : []),
    ...(graph ? [`chat network x${graph}`] : []),
  ];
}

const rows: WarmRow[] = [];
for (const route of API_ROUTES) {
  const request = await caseOf(route);
  const row: WarmRow = { path: route.path, note: request.note, status: 'measured', floor: 'no floor' };
  try {
    const handler = ((await import(join(ROOT, route.entry))) as { handler: ProxyHandler }).handler;
    let floor: Floor | undefined;
    try {
      floor = await floorOf(route)();
      row.floor = 'measured';
    } catch (error) {
      row.floor = 'error';
      row.error = `floor: ${(error as Error).message}`;
    }
    const context = lambdaContext();
    row.stackStatus = (await handler(proxyEvent(request, principal), context)).statusCode;
    if (floor) row.floorStatus = (await floor(proxyEvent(request, principal))).statusCode;
    for (let i = 0; i < warmup; i++) {
      if (i % 250 === 0) forgetCalls();
      await handler(proxyEvent(request, principal), context);
      if (floor) await floor(proxyEvent(request, principal));
    }
    row.calls = await callsOf(() => handler(proxyEvent(request, principal), context));
    if (floor) {
      const floorCalls = await callsOf(() => floor!(proxyEvent(request, principal)));
      if (floorCalls.join(', ') !== row.calls.join(', ')) {
        row.floor = 'error';
        row.error = `floor calls differ: stack ${row.calls.join(', ')}; floor ${floorCalls.join(', ')}`;
        floor = undefined;
      }
    }
    const stack: number[] = [];
    const bare: number[] = [];
    const stackWall: number[] = [];
    const bareWall: number[] = [];
    for (let i = 0; i < samples; i++) {
      if (i % 250 === 0) forgetCalls();
      const stackEvent = proxyEvent(request, principal);
      const floorEvent = proxyEvent(request, principal);
      const timeStack = () => time(() => handler(stackEvent, context), stack, stackWall);
      const timeFloor = async () => {
        if (floor) await time(() => floor(floorEvent), bare, bareWall);
      };
      if (i % 2 === 0) {
        await timeStack();
        await timeFloor();
      } else {
        await timeFloor();
        await timeStack();
      }
    }
    row.stackMs = median(stack);
    row.stackP90Ms = quantile(stack, 0.9);
    row.stackWallMs = median(stackWall);
    if (bare.length) {
      row.floorMs = median(bare);
      row.floorP90Ms = quantile(bare, 0.9);
      row.addedMs = row.stackMs - row.floorMs;
      row.floorWallMs = median(bareWall);
      row.addedWallMs = row.stackWallMs - row.floorWallMs;
    }
  } catch (error) {
    row.status = 'error';
    row.error = (error as Error).stack?.split('\n').slice(0, 3).join(' ') ?? String(error);
  }
  rows.push(row);
}

process.send!({ rows, samples, warmup }, () => process.exit(0));
