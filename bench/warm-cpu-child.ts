/**
 * Warm per-request CPU, in its own process (run by warm-cpu.ts with stdout discarded:
 * the handlers' JSON log lines go there, as in Lambda). Every endpoint of the route
 * table with a case is called through its full middy stack, and its floor (a bare
 * handler, bench/floors.ts) with the same calls, interleaved, with the document client
 * answered in-process from canned items. Results go back over IPC.
 */
import { join } from 'node:path';
import { ROOT } from '../scripts/build';
import { API_ROUTES } from '../shared/routes';
import { CannedTable } from './canned-table';
import { lambdaContext, proxyEvent, type ProxyHandler } from './events';
import { benchChannelItems, BENCH_TENANT } from './fixtures';
import { CASES, FLOORS } from './floors';
import { median, quantile } from './stats';

const { db } = await import('../shared/data/client');
const { hashApiKey } = await import('../shared/auth/api-keys');

const samples = Number(process.env.BENCH_WARM_SAMPLES ?? 4000);
const warmup = Number(process.env.BENCH_WARM_WARMUP ?? 1500);

const table = new CannedTable([
  ...benchChannelItems(),
  { pk: `APIKEY#${hashApiKey(BENCH_TENANT.apiKey)}`, sk: 'APIKEY', keyHash: hashApiKey(BENCH_TENANT.apiKey), keyId: BENCH_TENANT.keyId, workspaceId: BENCH_TENANT.workspaceId, userId: BENCH_TENANT.userId, role: 'admin', revoked: false },
]);
table.install(db);

const principal = { workspaceId: BENCH_TENANT.workspaceId, userId: BENCH_TENANT.userId, keyId: BENCH_TENANT.keyId, role: BENCH_TENANT.role, channelIds: [BENCH_TENANT.channelId] };

export interface WarmRow {
  path: string;
  note?: string;
  status: 'measured' | 'no case' | 'error';
  error?: string;
  stackStatus?: number;
  floorStatus?: number;
  stackMs?: number;
  stackP90Ms?: number;
  floorMs?: number;
  floorP90Ms?: number;
  addedMs?: number;
  floor: 'measured' | 'no floor' | 'error';
}

const rows: WarmRow[] = [];
for (const route of API_ROUTES) {
  const request = CASES[route.path];
  if (!request) {
    rows.push({ path: route.path, status: 'no case', floor: FLOORS[route.path] ? 'measured' : 'no floor' });
    continue;
  }
  const row: WarmRow = { path: route.path, note: request.note, status: 'measured', floor: 'no floor' };
  try {
    const handler = ((await import(join(ROOT, route.entry))) as { handler: ProxyHandler }).handler;
    let floor: ((event: ReturnType<typeof proxyEvent>) => Promise<{ statusCode: number }>) | undefined;
    if (FLOORS[route.path]) {
      try {
        floor = await FLOORS[route.path]();
        row.floor = 'measured';
      } catch (error) {
        row.floor = 'error';
        row.error = `floor: ${(error as Error).message}`;
      }
    }
    const context = lambdaContext();
    row.stackStatus = (await handler(proxyEvent(request, principal), context)).statusCode;
    if (floor) row.floorStatus = (await floor(proxyEvent(request, principal))).statusCode;
    for (let i = 0; i < warmup; i++) {
      await handler(proxyEvent(request, principal), context);
      if (floor) await floor(proxyEvent(request, principal));
    }
    const stack: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i < samples; i++) {
      const stackEvent = proxyEvent(request, principal);
      const floorEvent = proxyEvent(request, principal);
      const timeStack = async () => {
        const started = performance.now();
        await handler(stackEvent, context);
        stack.push(performance.now() - started);
      };
      const timeFloor = async () => {
        if (!floor) return;
        const started = performance.now();
        await floor(floorEvent);
        bare.push(performance.now() - started);
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
    if (bare.length) {
      row.floorMs = median(bare);
      row.floorP90Ms = quantile(bare, 0.9);
      row.addedMs = row.stackMs - row.floorMs;
    }
  } catch (error) {
    row.status = 'error';
    row.error = (error as Error).stack?.split('\n').slice(0, 3).join(' ') ?? String(error);
  }
  rows.push(row);
}

process.send!({ rows, samples, warmup }, () => process.exit(0));
