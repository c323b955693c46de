import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { join } from 'node:path';
import { ROOT } from '../scripts/build';
import { API_ROUTES } from '../shared/routes';
import { countDbCalls, summarize, type CallCounter, type DbCall } from './counter';
import type { ProxyHandler } from './events';
import { contactHeadItem, contactIndexItems, contactItem, labelItem, type Item } from './fixtures';
import { median } from './stats';

/**
 * 4. Scale: contacts/list and its search at 1k, 10k and 100k contacts in one channel
 * (seeded with BatchWriteItem in the shapes shared/data/contacts.ts writes: contacts,
 * the head item with the count, the CIDX# index buckets), page 1 and a deep page;
 * items and bytes read per request, and local latency. And one channel with 10k labels
 * for the endpoints that read label definitions. Needs DYNAMODB_ENDPOINT set.
 */

export const INDEX_BYTES_PER_CONTACT_TARGET = 100;

export interface ScaleRow {
  contacts: number;
  labels: number;
  case: string;
  path: string;
  status: number;
  calls: number;
  commands: string[];
  /** Each call with the KB of items it returned: the bytes read per call. */
  perCall: string[];
  readUnits: number;
  writeUnits: number;
  itemsRead: number;
  bytesRead: number;
  /** Bytes of the compact index read (Query CIDX#), and per contact of the channel. */
  indexBytes: number;
  indexBytesPerContact?: number;
  /** Full contact items read (page 1 query or the page's BatchGet). */
  contactItemsRead: number;
  total?: number;
  responseBytes: number;
  latencyMs: number;
}

export interface ScaleResult {
  rows: ScaleRow[];
  seeding: Array<{ what: string; items: number; ms: number }>;
  checks: Array<{ check: string; ok: boolean; detail: string }>;
}

async function writeAll(items: Item[], concurrency = 8): Promise<void> {
  const { db, tableName } = await import('../shared/data/client');
  const batches: Item[][] = [];
  for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25));
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < batches.length) {
        let pending = batches[next++].map((Item) => ({ PutRequest: { Item } }));
        for (let attempt = 0; pending.length; attempt++) {
          const result = await db.send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
          pending = (result.UnprocessedItems?.[tableName()] ?? []) as typeof pending;
          if (pending.length) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt));
        }
      }
    }),
  );
}

const handlerCache = new Map<string, ProxyHandler>();
async function handlerFor(path: string): Promise<ProxyHandler> {
  if (!handlerCache.has(path)) {
    const route = API_ROUTES.find((candidate) => candidate.path === path)!;
    handlerCache.set(path, ((await import(join(ROOT, route.entry))) as { handler: ProxyHandler }).handler);
  }
  return handlerCache.get(path)!;
}

/** Calls an endpoint `runs` times (after one uncounted call when `warm`), counting the last call's DynamoDB calls. */
async function measure(counter: CallCounter, apiKey: string, path: string, method: 'GET' | 'POST', params: Record<string, unknown>, runs: number, warm = true) {
  const { callApi } = await import('../test/support/api');
  const handler = await handlerFor(path);
  let calls: DbCall[] = [];
  const counted: ProxyHandler = async (event, context) => {
    counter.start();
    try {
      return await handler(event, context);
    } finally {
      calls = counter.stop();
    }
  };
  if (warm) await callApi(handler, { apiKey, method, params });
  const latencies: number[] = [];
  let response: { status: number; body: unknown } = { status: 0, body: undefined };
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    response = await callApi(counted, { apiKey, method, params });
    latencies.push(performance.now() - started);
  }
  return { calls, response, latencyMs: median(latencies) };
}

function row(contacts: number, labels: number, name: string, path: string, measured: Awaited<ReturnType<typeof measure>>): ScaleRow {
  const summary = summarize(measured.calls);
  const index = measured.calls.filter((call) => call.target === 'CIDX#');
  const contactReads = measured.calls.filter((call) => call.command === 'BatchGetItemCommand' || call.target === 'CONTACT#');
  const indexBytes = index.reduce((total, call) => total + call.itemBytes, 0);
  return {
    contacts,
    labels,
    case: name,
    path,
    status: measured.response.status,
    calls: summary.calls,
    commands: summary.commands,
    perCall: measured.calls.map((call, i) => `${summary.commands[i]}${call.itemBytes ? ` ${(call.itemBytes / 1024).toFixed(1)} KB` : ''}`),
    readUnits: summary.readUnits,
    writeUnits: summary.writeUnits,
    itemsRead: summary.itemsRead,
    bytesRead: summary.bytesRead,
    indexBytes,
    indexBytesPerContact: index.length && contacts ? indexBytes / contacts : undefined,
    contactItemsRead: contactReads.reduce((total, call) => total + call.items, 0) - contactReads.filter((call) => call.target === 'CONTACT#').length,
    total: (measured.response.body as { pagination?: { total?: number } } | undefined)?.pagination?.total,
    responseBytes: Buffer.byteLength(JSON.stringify(measured.response.body ?? '')),
    latencyMs: measured.latencyMs,
  };
}

export async function scale(options: { sizes: number[]; labelCount: number; log: (line: string) => void }): Promise<ScaleResult> {
  const { log } = options;
  const { db } = await import('../shared/data/client');
  const { createTenant } = await import('../test/support/tenants');
  const counter = countDbCalls(db, { consumedCapacity: true });
  const rows: ScaleRow[] = [];
  const seeding: ScaleResult['seeding'] = [];
  try {
    for (const size of options.sizes) {
      const tenant = await createTenant(1);
      const [channelId] = tenant.channelIds;
      const started = performance.now();
      const contacts = Array.from({ length: size }, (_, i) => contactItem(tenant.workspaceId, channelId, i, 4));
      await writeAll([
        contactHeadItem(tenant.workspaceId, channelId, size, 1),
        ...Array.from({ length: 4 }, (_, i) => labelItem(tenant.workspaceId, channelId, i)),
        ...contactIndexItems(tenant.workspaceId, channelId, contacts),
        ...contacts,
      ]);
      const ms = performance.now() - started;
      seeding.push({ what: `${size} contacts`, items: size + 261, ms });
      log(`scale: seeded ${size} contacts in ${(ms / 1000).toFixed(1)} s`);
      const runs = size >= 100_000 ? 3 : 5;
      const deepPage = Math.max(2, Math.floor(size / 50 / 2));
      const cases: Array<[string, Record<string, unknown>]> = [
        ['page 1 (limit 50)', { limit: '50' }],
        [`deep page ${deepPage} (limit 50)`, { page: String(deepPage), limit: '50' }],
        ['search by name, page 1', { search: 'hana', limit: '50' }],
        ['search by phone digits, page 1', { search: '415000', limit: '50' }],
      ];
      for (const [name, params] of cases) rows.push(row(size, 4, name, 'contacts/list', await measure(counter, tenant.adminKey, 'contacts/list', 'GET', params, runs)));
      // Writes touch one index bucket, whose size (≈ contacts × 28 B / 256) sets the write units.
      const create = await measure(counter, tenant.adminKey, 'contacts/manage', 'POST', { phoneNumber: '+442079460958', name: 'Scale New' }, 1, false);
      rows.push(row(size, 4, 'contacts/manage create', 'contacts/manage', create));
      const rename = await measure(counter, tenant.adminKey, 'contacts/manage', 'POST', { phoneNumber: `+${contacts[3].phone}`, name: 'Renamed Contact' }, 1, false);
      rows.push(row(size, 4, 'contacts/manage rename (index entry rewritten)', 'contacts/manage', rename));
    }

    if (options.labelCount > 0) {
      const tenant = await createTenant(1);
      const [channelId] = tenant.channelIds;
      const started = performance.now();
      const contacts = Array.from({ length: 100 }, (_, i) => contactItem(tenant.workspaceId, channelId, i, options.labelCount));
      await writeAll([
        contactHeadItem(tenant.workspaceId, channelId, contacts.length, 1),
        ...Array.from({ length: options.labelCount }, (_, i) => labelItem(tenant.workspaceId, channelId, i)),
        ...contactIndexItems(tenant.workspaceId, channelId, contacts),
        ...contacts,
      ]);
      const ms = performance.now() - started;
      seeding.push({ what: `${options.labelCount} labels`, items: options.labelCount + 100, ms });
      log(`scale: seeded ${options.labelCount} labels in ${(ms / 1000).toFixed(1)} s`);
      const labelCases: Array<[string, string, 'GET' | 'POST', Record<string, unknown>]> = [
        ['labels/list', 'labels/list', 'GET', {}],
        ['contacts/list page 1 (labels cached)', 'contacts/list', 'GET', { limit: '50' }],
        ['contacts/manage update (reads all definitions)', 'contacts/manage', 'POST', { phoneNumber: `+${contacts[1].phone}`, labelNames: ['VIP'] }],
      ];
      for (const [name, path, method, params] of labelCases) rows.push(row(contacts.length, options.labelCount, name, path, await measure(counter, tenant.adminKey, path, method, params, 3)));
    }
  } finally {
    counter.remove();
  }

  const checks: ScaleResult['checks'] = [];
  const sizes = options.sizes;
  const page1 = (size: number) => rows.find((r) => r.contacts === size && r.labels === 4 && r.case.startsWith('page 1'));
  const small = page1(sizes[0]);
  const large = page1(sizes[sizes.length - 1]);
  if (small && large) {
    checks.push({
      check: `contacts/list page 1 costs the same at ${large.contacts} as at ${small.contacts} contacts`,
      ok: large.calls === small.calls && large.readUnits === small.readUnits && large.itemsRead === small.itemsRead && large.total === large.contacts,
      detail: `${small.calls} vs ${large.calls} calls, ${small.readUnits} vs ${large.readUnits} RCU, ${small.itemsRead} vs ${large.itemsRead} items; total ${large.total} from the maintained count`,
    });
  }
  for (const r of rows.filter((candidate) => candidate.contacts === sizes[sizes.length - 1] && candidate.path === 'contacts/list' && !candidate.case.startsWith('page 1'))) {
    checks.push({
      check: `${r.case} at ${r.contacts} contacts reads the compact index (≤ ${INDEX_BYTES_PER_CONTACT_TARGET} B a contact), not the contacts`,
      ok: r.status === 200 && (r.indexBytesPerContact ?? Infinity) <= INDEX_BYTES_PER_CONTACT_TARGET && r.contactItemsRead <= 50,
      detail: `${((r.indexBytesPerContact ?? NaN) as number).toFixed(1)} B a contact (${(r.indexBytes / 1024).toFixed(0)} KB index), ${r.contactItemsRead} contact items read, ${r.calls} calls`,
    });
  }
  for (const r of rows.filter((candidate) => candidate.labels > 4 && /list/.test(candidate.path))) {
    checks.push({
      check: `${r.case} with ${r.labels} labels: at most 2 DynamoDB calls (list-endpoint target)`,
      ok: r.calls <= 2,
      detail: `${r.calls} calls, ${(r.bytesRead / 1024).toFixed(0)} KB read, response ${(r.responseBytes / 1024).toFixed(0)} KB`,
    });
  }
  return { rows, seeding, checks };
}
