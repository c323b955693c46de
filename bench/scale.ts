import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { join } from 'node:path';
import { ROOT } from '../infra/bundles';
import { LIMITS } from '../shared/schema/params';
import { API_ROUTES } from '../shared/routes';
import { countDbCalls, summarize, type CallCounter, type DbCall } from './counter';
import type { ProxyHandler } from './events';
import {
  contactHeadItem,
  contactIndexItems,
  contactItem,
  fieldItem,
  LABEL_DESCRIPTION_MAX,
  LABEL_NAME_MAX,
  labelItem,
  type Item,
  type LabelShape,
} from './fixtures';
import { median } from './stats';

/**
 * 4. Scale: contacts/list and its search at 1k, 10k and 100k contacts in one channel
 * (seeded with BatchWriteItem in the shapes shared/data/contacts.ts writes: contacts,
 * the head item with the count, the CIDX# index buckets), page 1 and a deep page;
 * items and bytes read per request, and local latency. And channels at the label cap
 * (MAX_LABELS_PER_CHANNEL, shared/data/definitions.ts) for the endpoints that read label
 * definitions, and one at the custom-field cap (MAX_FIELDS_PER_CHANNEL) for
 * custom-fields/list: more cannot exist, since labels/manage and custom-fields/manage
 * refuse the next one (checked here through the real handlers). The caps and the value
 * limits (LIMITS, shared/schema/params.ts) are read from the code. Needs DYNAMODB_ENDPOINT set.
 */

/** DynamoDB's most data one Query page reads. */
export const QUERY_PAGE_BYTES = 1024 * 1024;

export const INDEX_BYTES_PER_CONTACT_TARGET = 100;

export interface ScaleRow {
  contacts: number;
  labels: number;
  /** Custom fields of the channel, when a case is about them. */
  fields?: number;
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

/** The label shapes measured at the cap, and how the report names them. */
const LABEL_SHAPES: Array<[LabelShape, string]> = [
  ['typical', 'labels as the fixtures write them'],
  ['longest', `every label at its longest (${LABEL_NAME_MAX}-character name, ${LABEL_DESCRIPTION_MAX}-character description, ASCII)`],
  ['longest-3-byte', `every label at its longest in 3-byte UTF-8 characters (${LABEL_NAME_MAX} + ${LABEL_DESCRIPTION_MAX} characters)`],
];

/** The custom-field shape measured at the cap, as the report names it. */
const FIELD_SHAPE_NAME = `every field a dropdown at its longest in 3-byte UTF-8 characters (${LIMITS.name}-character name, ${LIMITS.optionEntries} options of ${LIMITS.optionLength} characters)`;

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

export async function scale(options: { sizes: number[]; labels?: boolean; log: (line: string) => void }): Promise<ScaleResult> {
  const { log } = options;
  const { db } = await import('../shared/data/client');
  const { createTenant } = await import('../test/support/tenants');
  const counter = countDbCalls(db, { consumedCapacity: true });
  const rows: ScaleRow[] = [];
  const seeding: ScaleResult['seeding'] = [];
  const { MAX_LABELS_PER_CHANNEL: cap, MAX_FIELDS_PER_CHANNEL: fieldCap } = await import('../shared/data/definitions');
  let refusal: { status: number; error?: string; message?: string; calls: number } | undefined;
  let fieldRefusal: typeof refusal;
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
      for (const [name, params] of cases)
        rows.push(row(size, 4, name, 'contacts/list', await measure(counter, tenant.adminKey, 'contacts/list', 'GET', params, runs)));
      // Writes touch one index bucket, whose size (≈ contacts × 28 B / 256) sets the write units.
      const create = await measure(counter, tenant.adminKey, 'contacts/manage', 'POST', { phoneNumber: '+442079460958', name: 'Scale New' }, 1, false);
      rows.push(row(size, 4, 'contacts/manage create', 'contacts/manage', create));
      const rename = await measure(
        counter,
        tenant.adminKey,
        'contacts/manage',
        'POST',
        { phoneNumber: `+${contacts[3].phone}`, name: 'Renamed Contact' },
        1,
        false,
      );
      rows.push(row(size, 4, 'contacts/manage rename (index entry rewritten)', 'contacts/manage', rename));
    }

    if (options.labels !== false) {
      for (const [shape, shapeName] of LABEL_SHAPES) {
        // A channel at the cap, in the shapes labels/manage writes: the labels and the head item's labelCount.
        const tenant = await createTenant(1);
        const [channelId] = tenant.channelIds;
        const started = performance.now();
        const contacts = shape === 'typical' ? Array.from({ length: 100 }, (_, i) => contactItem(tenant.workspaceId, channelId, i, cap)) : [];
        await writeAll([
          contactHeadItem(tenant.workspaceId, channelId, contacts.length, 1, cap),
          ...Array.from({ length: cap }, (_, i) => labelItem(tenant.workspaceId, channelId, i, shape)),
          ...contactIndexItems(tenant.workspaceId, channelId, contacts),
          ...contacts,
        ]);
        const ms = performance.now() - started;
        seeding.push({ what: `${cap} labels (${shape})`, items: cap + 1 + contacts.length, ms });
        log(`scale: seeded ${cap} labels (${shape}) in ${(ms / 1000).toFixed(1)} s`);
        const suffix = shape === 'typical' ? '' : `, ${shapeName}`;
        rows.push(row(contacts.length, cap, `labels/list${suffix}`, 'labels/list', await measure(counter, tenant.adminKey, 'labels/list', 'GET', {}, 3)));
        if (shape !== 'typical') continue;
        const labelCases: Array<[string, string, 'GET' | 'POST', Record<string, unknown>]> = [
          ['contacts/list page 1 (labels cached)', 'contacts/list', 'GET', { limit: '50' }],
          [
            'contacts/manage update with a label (definitions cached per container)',
            'contacts/manage',
            'POST',
            { phoneNumber: `+${contacts[1].phone}`, labelNames: ['VIP'] },
          ],
        ];
        for (const [name, path, method, params] of labelCases)
          rows.push(row(contacts.length, cap, name, path, await measure(counter, tenant.adminKey, path, method, params, 3)));
        // Label number cap + 1, through the real handler: refused, so a channel never holds more.
        const refused = await measure(counter, tenant.adminKey, 'labels/manage', 'POST', { name: `label ${cap + 1}`, color: '#1E88E5' }, 1, false);
        rows.push(row(contacts.length, cap, `labels/manage create label ${cap + 1} (refused)`, 'labels/manage', refused));
        const body = refused.response.body as { error?: string; message?: string } | undefined;
        refusal = { status: refused.response.status, error: body?.error, message: body?.message, calls: refused.calls.length };
      }

      // A channel at the custom-field cap, every field a dropdown at its longest (the head item's fieldCount at the cap).
      const tenant = await createTenant(1);
      const [channelId] = tenant.channelIds;
      const started = performance.now();
      await writeAll([
        { ...contactHeadItem(tenant.workspaceId, channelId, 0, 1), fieldCount: fieldCap },
        ...Array.from({ length: fieldCap }, (_, i) => fieldItem(tenant.workspaceId, channelId, i, 'longest-3-byte')),
      ]);
      const ms = performance.now() - started;
      seeding.push({ what: `${fieldCap} custom fields (longest-3-byte)`, items: fieldCap + 1, ms });
      log(`scale: seeded ${fieldCap} custom fields (longest-3-byte) in ${(ms / 1000).toFixed(1)} s`);
      rows.push({
        ...row(
          0,
          0,
          `custom-fields/list, ${FIELD_SHAPE_NAME}`,
          'custom-fields/list',
          await measure(counter, tenant.adminKey, 'custom-fields/list', 'GET', {}, 3),
        ),
        fields: fieldCap,
      });
      const refused = await measure(counter, tenant.adminKey, 'custom-fields/manage', 'POST', { name: `field ${fieldCap + 1}` }, 1, false);
      rows.push({ ...row(0, 0, `custom-fields/manage create field ${fieldCap + 1} (refused)`, 'custom-fields/manage', refused), fields: fieldCap });
      const body = refused.response.body as { error?: string; message?: string } | undefined;
      fieldRefusal = { status: refused.response.status, error: body?.error, message: body?.message, calls: refused.calls.length };
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
  for (const r of rows.filter(
    (candidate) => candidate.contacts === sizes[sizes.length - 1] && candidate.path === 'contacts/list' && !candidate.case.startsWith('page 1'),
  )) {
    if (r.case.startsWith('deep page')) {
      // A deep page (no search) reads the container's kept phone order, not the index: measured warm, after one call
      // that kept it, so the head (is the order current?) and the page's contacts, whatever the channel's size.
      checks.push({
        check: `${r.case} at ${r.contacts} contacts, warm: the kept phone order (limiter, head, the page's contacts: ≤ 3 calls, no index read, ≤ 50 contacts)`,
        ok: r.status === 200 && r.calls <= 3 && r.indexBytes === 0 && r.contactItemsRead <= 50 && r.total === r.contacts,
        detail: `${r.calls} calls (${r.commands.join(', ')}), ${(r.indexBytes / 1024).toFixed(0)} KB index, ${r.contactItemsRead} contact items read, ${r.readUnits} RCU, total ${r.total}`,
      });
      continue;
    }
    checks.push({
      check: `${r.case} at ${r.contacts} contacts reads the compact index (≤ ${INDEX_BYTES_PER_CONTACT_TARGET} B a contact), not the contacts`,
      ok: r.status === 200 && (r.indexBytesPerContact ?? Infinity) <= INDEX_BYTES_PER_CONTACT_TARGET && r.contactItemsRead <= 50,
      detail: `${((r.indexBytesPerContact ?? NaN) as number).toFixed(1)} B a contact (${(r.indexBytes / 1024).toFixed(0)} KB index), ${r.contactItemsRead} contact items read, ${r.calls} calls`,
    });
  }
  const atCap = rows.filter((candidate) => (candidate.labels === cap || candidate.fields === fieldCap) && candidate.path.endsWith('/list'));
  for (const r of atCap) {
    const fields = r.path === 'custom-fields/list';
    const [what, noun] = fields ? [`${fieldCap} custom fields`, 'field'] : [`${cap} labels`, 'label'];
    const perItem = (r.path === 'labels/list' || fields) && r.itemsRead ? r.bytesRead / r.itemsRead : undefined;
    // DynamoDB ends a query page at 1 MB of items by its UTF-8 size rules; dynalite sizes strings in UTF-16
    // units, so with multi-byte text it returns larger pages than DynamoDB would: count pages from the bytes too.
    const pages = Math.max(1, Math.ceil(r.bytesRead / QUERY_PAGE_BYTES));
    const measuredPages = r.perCall.filter((call) => call.startsWith('Query')).length;
    checks.push({
      check: `${r.case} at the cap of ${what}: at most 2 DynamoDB calls (the list-endpoint target: one query page)`,
      ok: r.status === 200 && r.calls <= 2 && pages <= 1,
      detail:
        `${r.calls} calls, ${(r.bytesRead / 1024).toFixed(0)} KB read (${((100 * r.bytesRead) / QUERY_PAGE_BYTES).toFixed(0)} % of a 1 MB page), response ${(r.responseBytes / 1024).toFixed(0)} KB` +
        (pages > measuredPages ? `; in DynamoDB (UTF-8 sizes) ≈ ${pages} query pages, ${r.calls - measuredPages + pages} calls` : '') +
        (perItem ? `; ≈ ${perItem.toFixed(0)} B a ${noun}, so a 1 MB query page holds ≈ ${Math.floor(QUERY_PAGE_BYTES / perItem)} of them` : ''),
    });
  }
  if (refusal) {
    checks.push({
      check: `labels/manage refuses label ${cap + 1} on a channel at the cap (${cap}, MAX_LABELS_PER_CHANNEL): why more labels are not a case`,
      ok: refusal.status >= 400 && refusal.status < 500 && refusal.error === 'limit_reached',
      detail: `${refusal.status} ${refusal.error ?? ''}: ${refusal.message ?? ''} (${refusal.calls} calls)`,
    });
  }
  if (fieldRefusal) {
    checks.push({
      check: `custom-fields/manage refuses field ${fieldCap + 1} on a channel at the cap (${fieldCap}, MAX_FIELDS_PER_CHANNEL): why more custom fields are not a case`,
      ok: fieldRefusal.status >= 400 && fieldRefusal.status < 500 && fieldRefusal.error === 'limit_reached',
      detail: `${fieldRefusal.status} ${fieldRefusal.error ?? ''}: ${fieldRefusal.message ?? ''} (${fieldRefusal.calls} calls)`,
    });
  }
  return { rows, seeding, checks };
}
