/**
 * What parsing each item read costs the hottest list reads (docs/PERFORMANCE.md, "Reads
 * parsed by their entity"): `npx tsx bench/item-parse.ts`. Not a section of `npm run bench`,
 * a micro-benchmark to re-run when the entity schemas, shared/data/item-check.ts or valibot
 * change. For each of contacts/list (a page of 200), chat/messages/list and
 * webhooks/deliveries (pages of 50), against the canned table of the warm-CPU section: the
 * request's warm CPU through its full stack (as the code parses, the compiled check first),
 * and per item read, the CPU of valibot's parse and of the compiled check. From these,
 * the share of the request valibot alone would take, and the share the compiled check takes.
 */
import { join } from 'node:path';
import type * as v from 'valibot';

// As bench/warm-cpu.ts gives its child: production mode, every service answered in-process.
Object.assign(process.env, {
  NODE_ENV: 'production',
  TABLE_NAME: 'workspace-api',
  AWS_REGION: 'us-east-1',
  DYNAMODB_ENDPOINT: 'http://127.0.0.1:9',
  AUTOMATION_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/workspace-api-automation',
  EVENT_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/workspace-api-events.fifo',
  EVENT_LANE_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/workspace-api-event-lanes',
  POWERTOOLS_SERVICE_NAME: 'workspace-api',
  POWERTOOLS_LOG_LEVEL: 'ERROR',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
});

const { ROOT } = await import('../infra/bundles');
const { installCannedServices } = await import('./canned-services');
const { CannedTable } = await import('./canned-table');
const { lambdaContext, proxyEvent } = await import('./events');
const { benchChannelItems, BENCH_TENANT, BENCH_WEBHOOK_ID, CHAT_CONTACT, contactPhone } = await import('./fixtures');
const { median } = await import('./stats');
const valibot = await import('valibot');
const { db } = await import('../shared/data/client');
const { hashApiKey } = await import('../shared/auth/api-keys');
const { compiledItem } = await import('../shared/data/item-check');
const { ContactItem } = await import('../shared/data/contacts');
const { ContactHeadItem } = await import('../shared/data/contact-head');
const { HistoryItem } = await import('../shared/data/messages');
const { DeliveryItem } = await import('../shared/data/events');

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 600);
const items = benchChannelItems(250);
const apiKey = hashApiKey(BENCH_TENANT.apiKey);
const { workspaceId, userId, keyId, role, channelId } = BENCH_TENANT;
const table = new CannedTable([...items, { pk: `APIKEY#${apiKey}`, sk: 'APIKEY', keyHash: apiKey, keyId, workspaceId, userId, role: 'admin', revoked: false }]);
const mock = table.install(db);
const services = installCannedServices({ waId: contactPhone(CHAT_CONTACT) });
const principal = { workspaceId, userId, keyId, role, channelIds: [channelId] };

/** Each read: its function, its request, and the schema and tag of the items it parses (one per item shown). */
const READS = [
  {
    path: 'contacts/list',
    entry: 'functions/contacts-list.ts',
    params: { limit: '200' },
    schema: valibot.union([ContactItem, ContactHeadItem]),
    tag: ContactItem.tag,
  },
  {
    path: 'chat/messages/list',
    entry: 'functions/chat-messages-list.ts',
    params: { phoneNumber: `+${contactPhone(CHAT_CONTACT)}`, limit: '50' },
    schema: HistoryItem,
    tag: HistoryItem.tag,
  },
  {
    path: 'webhooks/deliveries',
    entry: 'functions/webhooks-deliveries.ts',
    params: { webhookId: BENCH_WEBHOOK_ID },
    schema: DeliveryItem,
    tag: DeliveryItem.tag,
  },
];

/** CPU (user + system) of `run`, in ms. */
async function cpuOf(run: () => unknown): Promise<number> {
  const started = process.cpuUsage();
  await run();
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000;
}

/** Median CPU per item, in µs, of `parse` over these items (each round on fresh copies, as a read gets them). */
async function perItem(sample: Record<string, unknown>[], parse: (item: Record<string, unknown>) => unknown): Promise<number> {
  const rounds: number[] = [];
  for (let round = 0; round < 60; round++) {
    const copies = sample.map((item) => structuredClone(item));
    const ms = await cpuOf(() => {
      for (const item of copies) parse(item);
    });
    if (round >= 10) rounds.push((ms * 1000) / copies.length);
  }
  return median(rounds);
}

const percent = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)} %`;

for (const read of READS) {
  const { handler } = (await import(join(ROOT, read.entry))) as { handler: import('./events').ProxyHandler };
  const context = lambdaContext();
  const request = () => proxyEvent({ method: 'GET', params: { channelId, ...read.params } }, principal);
  const first = await handler(request(), context);
  const shown = (JSON.parse(first.body) as { data: unknown[] }).data.length;
  const requestMs: number[] = [];
  for (let i = 0; i < SAMPLES + 100; i++) {
    if (i % 100 === 0) {
      mock.resetHistory();
      services.resetHistory();
    }
    const event = request();
    const ms = await cpuOf(() => handler(event, context));
    if (i >= 100) requestMs.push(ms);
  }
  const sample = items.filter((item) => item.entity === read.tag) as Record<string, unknown>[];
  const check = compiledItem(read.schema as v.GenericSchema)!;
  const valibotUs = await perItem(sample, (item) => valibot.safeParse(read.schema, item));
  const compiledUs = await perItem(sample, (item) => check(item));
  const measured = median(requestMs);
  const withValibot = measured + (shown * (valibotUs - compiledUs)) / 1000;
  console.log(
    `${read.path} (status ${first.statusCode}, ${shown} items): warm CPU ${measured.toFixed(3)} ms; per item valibot ${valibotUs.toFixed(2)} µs, compiled ${compiledUs.toFixed(2)} µs; ` +
      `valibot alone would take ${percent((shown * valibotUs) / 1000, withValibot)} of the request, the compiled check takes ${percent((shown * compiledUs) / 1000, measured)}`,
  );
}
process.exit(0);
