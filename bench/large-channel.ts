import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { getHeapStatistics } from 'node:v8';
import { join } from 'node:path';
import { ROOT } from '../infra/bundles';
import { API_ROUTES } from '../shared/routes';
import { countDbCalls, summarize } from './counter';
import type { ProxyHandler } from './events';
import { median } from './stats';

/**
 * 4b. A large channel: `size` contacts imported into one channel through contacts/import's
 * own path (the endpoint's row parser and `importContacts`, 1,000 rows a call, 4 calls in
 * flight: what `admin contacts import` does), then contacts/list page 1, the last page
 * and two searches through the real handler. Import: rows/s and write units a new contact
 * (consumed capacity summed by an SDK middleware); reads: calls, read units, local latency
 * and the heap the request grew by at its peak (sampled every 2 ms). BENCH_SCALE=1m adds
 * 1M contacts (opt-in: building it takes far longer than 10 minutes locally).
 */

export interface LargeChannelRead {
  contacts: number;
  case: string;
  status: number;
  calls: number;
  readUnits: number;
  kbRead: number;
  total?: number;
  latencyMs: number;
  peakHeapMb: number;
}

export interface LargeChannelImport {
  contacts: number;
  rows: number;
  seconds: number;
  rowsPerSecond: number;
  created: number;
  failed: number;
  calls: number;
  writeUnits: number;
  readUnits: number;
  writeUnitsPerNewContact: number;
}

export interface LargeChannelResult {
  imports: LargeChannelImport[];
  reads: LargeChannelRead[];
}

/** Capacity of every call on `client` while active, summed (no per-call records: a 1M import makes millions of calls). */
export function capacityMeter(client: DynamoDBDocumentClient) {
  const totals = { calls: 0, readUnits: 0, writeUnits: 0 };
  const name = `bench-capacity-meter-${Date.now()}`;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as Record<string, unknown>;
      input.ReturnConsumedCapacity ??= 'TOTAL';
      const result = await next(args);
      const consumed = (result.output as { ConsumedCapacity?: { CapacityUnits?: number } | Array<{ CapacityUnits?: number }> }).ConsumedCapacity;
      const units = (Array.isArray(consumed) ? consumed : consumed ? [consumed] : []).reduce((sum, entry) => sum + (entry.CapacityUnits ?? 0), 0);
      totals.calls++;
      if (/^(Get|BatchGet|Query|Scan)/.test(String(context.commandName))) totals.readUnits += units;
      else totals.writeUnits += units;
      return result;
    },
    { step: 'serialize', name, priority: 'high' },
  );
  return { totals, remove: () => client.middlewareStack.remove(name) };
}

/** Runs `work` while sampling the heap every 2 ms; the peak above the heap before it, in MB. */
async function withPeakHeap<T>(work: () => Promise<T>): Promise<{ value: T; peakHeapMb: number }> {
  (globalThis as { gc?: () => void }).gc?.();
  const before = getHeapStatistics().used_heap_size;
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, getHeapStatistics().used_heap_size)), 2);
  try {
    const value = await work();
    peak = Math.max(peak, getHeapStatistics().used_heap_size);
    return { value, peakHeapMb: (peak - before) / 1024 / 1024 };
  } finally {
    clearInterval(timer);
  }
}

const row = (i: number) => ({
  phoneNumber: `+1 415 ${String(i).padStart(7, '0')}`,
  name: `Person${i % 997} Family${i}`,
  email: `p${i}@example.com`,
  ...(i % 10 === 0 ? { labelNames: ['VIP'], customFieldsData: { city: 'Paris' } } : {}),
});

export async function largeChannel(options: { sizes: number[]; log: (line: string) => void }): Promise<LargeChannelResult> {
  const { db } = await import('../shared/data/client');
  const { createTenant } = await import('../test/support/tenants');
  const { callApi } = await import('../test/support/api');
  const { importContacts } = await import('../shared/domain/contact-import');
  const { parseImportRow } = await import('../functions/contacts-import');
  const handlers = new Map<string, ProxyHandler>();
  const handlerFor = async (path: string) => {
    if (!handlers.has(path))
      handlers.set(path, ((await import(join(ROOT, API_ROUTES.find((route) => route.path === path)!.entry))) as { handler: ProxyHandler }).handler);
    return handlers.get(path)!;
  };
  const result: LargeChannelResult = { imports: [], reads: [] };
  for (const size of options.sizes) {
    const tenant = await createTenant(1);
    const [channelId] = tenant.channelIds;
    await callApi(await handlerFor('labels/manage'), { apiKey: tenant.adminKey, params: { name: 'VIP' } });
    await callApi(await handlerFor('custom-fields/manage'), { apiKey: tenant.adminKey, params: { name: 'city' } });

    // Import, as admin contacts import runs it (distinct numbers, so calls need not wait for each other).
    const meter = capacityMeter(db);
    const started = performance.now();
    let created = 0;
    let failed = 0;
    let next = 0;
    let lastLog = started;
    try {
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          for (let from = next; from < size; from = next) {
            next += 1000;
            const rows = Array.from({ length: Math.min(1000, size - from) }, (_, i) => parseImportRow(row(from + i), i));
            const applied = await importContacts({ workspaceId: tenant.workspaceId, channelId }, rows);
            created += applied.created;
            failed += applied.failed;
            if (performance.now() - lastLog > 10_000) {
              lastLog = performance.now();
              options.log(`large channel: imported ${created} of ${size} (${Math.round(created / ((lastLog - started) / 1000))} rows/s)`);
            }
          }
        }),
      );
    } finally {
      meter.remove();
    }
    const seconds = (performance.now() - started) / 1000;
    result.imports.push({
      contacts: size,
      rows: size,
      seconds,
      rowsPerSecond: size / seconds,
      created,
      failed,
      calls: meter.totals.calls,
      writeUnits: meter.totals.writeUnits,
      readUnits: meter.totals.readUnits,
      writeUnitsPerNewContact: meter.totals.writeUnits / Math.max(created, 1),
    });
    options.log(
      `large channel: ${size} contacts imported in ${seconds.toFixed(0)} s (${(size / seconds).toFixed(0)} rows/s, ${(meter.totals.writeUnits / Math.max(created, 1)).toFixed(2)} WRU a new contact)`,
    );

    // Reads through the real handler, warm (one uncounted call first).
    const list = await handlerFor('contacts/list');
    const counter = countDbCalls(db, { consumedCapacity: true });
    const lastPage = Math.ceil(size / 50);
    const manage = await handlerFor('contacts/manage');
    let creates = 0;
    // A contact created by contacts/manage before each call (not counted): the container's kept phone order is then one create old.
    const createOne = () =>
      callApi(manage, { apiKey: tenant.adminKey, params: { phoneNumber: `+1 416 ${String(creates).padStart(7, '0')}`, name: `Late ${creates++}` } });
    const erase = await handlerFor('contacts/delete');
    // A contact created and erased before each call: an erasure empties the head's recent log, so the kept order is read again.
    const createAndErase = async () => {
      await createOne();
      await callApi(erase, { apiKey: tenant.adminKey, params: { phoneNumber: `+1 416 ${String(creates - 1).padStart(7, '0')}` } });
    };
    const cases: Array<[string, Record<string, unknown>, (() => Promise<unknown>)?]> = [
      ['page 1 with total (limit 50)', { limit: '50' }],
      [`deep page ${lastPage}, the last (limit 50)`, { page: String(lastPage), limit: '50' }],
      [`deep page ${lastPage} after a create (contacts/manage) each time`, { page: String(lastPage), limit: '50' }, createOne],
      [`deep page ${lastPage} after an erasure each time (the order read again)`, { page: String(lastPage), limit: '50' }, createAndErase],
      ['search by name, page 1', { search: 'person12 ', limit: '50' }],
      ['search by phone digits, page 1', { search: '4150001', limit: '50' }],
    ];
    try {
      for (const [name, params, before] of cases) {
        await before?.();
        await callApi(list, { apiKey: tenant.adminKey, params, remainingTimeMs: 600_000 });
        const latencies: number[] = [];
        let last: { calls: ReturnType<typeof summarize>; status: number; total?: number; peakHeapMb: number } | undefined;
        for (let run = 0; run < 3; run++) {
          await before?.();
          counter.start();
          const t0 = performance.now();
          const { value: response, peakHeapMb } = await withPeakHeap(() => callApi(list, { apiKey: tenant.adminKey, params, remainingTimeMs: 600_000 }));
          latencies.push(performance.now() - t0);
          const calls = summarize(counter.stop());
          last = { calls, status: response.status, total: response.body?.pagination?.total, peakHeapMb: Math.max(peakHeapMb, last?.peakHeapMb ?? 0) };
        }
        result.reads.push({
          contacts: size,
          case: name,
          status: last!.status,
          calls: last!.calls.calls,
          readUnits: last!.calls.readUnits,
          kbRead: last!.calls.bytesRead / 1024,
          total: last!.total,
          latencyMs: median(latencies),
          peakHeapMb: last!.peakHeapMb,
        });
        options.log(
          `large channel: ${size} contacts, ${name}: ${median(latencies).toFixed(0)} ms, ${last!.calls.calls} calls, ${last!.calls.readUnits} RRU, peak heap +${last!.peakHeapMb.toFixed(0)} MB`,
        );
      }
    } finally {
      counter.remove();
    }
  }
  return result;
}
