import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { webhookEnvelope } from '../scripts/local/sandbox-webhooks';
import { signPayload } from '../shared/chat/signature';
import { eventIdTime } from '../shared/events/event-types';
import { API_BASE_PATH, WEBHOOK_PATH } from '../shared/routes';
import { startStack } from './throughput';

/**
 * 6. Event delivery on the local stack (`npm start`'s program): a burst of signed
 * inbound-message webhooks, each making one `message.received` event, delivered to a
 * receiver on 127.0.0.1. Throughput is deliveries per second from the first to the last
 * delivery; latency is from the state change (the time the event id carries, written
 * with the change) to the delivery's arrival, i.e. the first attempt.
 */

export interface EventDeliveryResult {
  /** Deliveries per second of events put straight into the deliverer's queue (the deliverer alone). */
  queuedDeliveriesPerSecond: number;
  queuedLost: number;
  events: number;
  delivered: number;
  lost: number;
  duplicates: number;
  deliveriesPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

export async function eventDelivery(options: { events: number; bundlesBuilt: boolean; log: (line: string) => void }): Promise<EventDeliveryResult> {
  const dataDir = await mkdtemp(join(tmpdir(), 'wsapi-bench-events-'));
  const arrivals = new Map<string, number>();
  let duplicates = 0;
  const receiver = createServer((req, res) => {
    const id = String(req.headers['webhook-id']);
    if (arrivals.has(id)) duplicates++;
    else arrivals.set(id, Date.now());
    req.resume();
    req.on('end', () => res.writeHead(204).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { child, url } = await startStack(dataDir, options.bundlesBuilt);
  try {
    const demo = JSON.parse(await readFile(join(dataDir, 'demo.json'), 'utf8'));
    const workspace = demo.workspaces[0];
    const apiKey = workspace.keys.find((key: { role: string }) => key.role === 'admin').apiKey as string;
    const channel = workspace.channels[0];
    const subscribed = await fetch(`${url}${API_BASE_PATH}/webhooks/manage`, {
      method: 'POST',
      headers: { 'X-API-Key': apiKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ channelId: channel.id, url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/bench`, events: ['message.received'] }),
    });
    if (subscribed.status !== 200) throw new Error(`webhooks/manage answered ${subscribed.status}`);
    const inbound = (i: number) => postSignedInbound(url, demo.chatNetwork.appSecret, channel, `1415556${String(i).padStart(4, '0')}`, `hello ${i}`);
    // 8 senders in parallel, as Meta's webhook deliveries would come.
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < options.events) await inbound(next++);
      }),
    );
    const deadline = Date.now() + 120_000;
    while (arrivals.size < options.events && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    // The deliverer alone: as many events put straight into its table queue (as the hand-off puts them), then drained.
    const queued = await queuedDelivery(dataDir, workspace.id, channel.id, options.events, arrivals);
    for (const id of queued.ids) arrivals.delete(id);
    const times = [...arrivals.values()];
    const latencies = [...arrivals.entries()].map(([id, at]) => at - eventIdTime(id)).sort((a, b) => a - b);
    const span = (Math.max(...times) - Math.min(...times)) / 1000 || 1;
    options.log(`event delivery: ${arrivals.size}/${options.events} delivered`);
    return {
      queuedDeliveriesPerSecond: queued.perSecond,
      queuedLost: queued.lost,
      events: options.events,
      delivered: arrivals.size,
      lost: options.events - arrivals.size,
      duplicates,
      deliveriesPerSecond: arrivals.size / span,
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      maxMs: latencies[latencies.length - 1] ?? 0,
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    receiver.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** What a demo channel (demo.json) gives a signed chat-network webhook. */
type DemoChannel = Parameters<typeof webhookEnvelope>[0];

/** One inbound text message from `from` to `channel`, as Meta delivers it: a webhook signed with the app secret. */
export function postSignedInbound(url: string, appSecret: string, channel: DemoChannel, from: string, text: string): Promise<Response> {
  const body = JSON.stringify(
    webhookEnvelope(channel, {
      contacts: [{ profile: { name: `Bench ${from}` }, wa_id: from }],
      messages: [
        { from, id: `wamid.bench${randomBytes(12).toString('hex')}`, timestamp: String(Math.floor(Date.now() / 1000)), type: 'text', text: { body: text } },
      ],
    }),
  );
  return fetch(`${url}${WEBHOOK_PATH}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Hub-Signature-256': signPayload(body, appSecret) },
    body,
  });
}

/** Puts `count` message.received events straight into the running stack's event queue and measures their deliveries. */
async function queuedDelivery(
  dataDir: string,
  workspaceId: string,
  channelId: string,
  count: number,
  arrivals: Map<string, number>,
): Promise<{ ids: string[]; perSecond: number; lost: number }> {
  const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
  const { DynamoDBDocumentClient, BatchWriteCommand } = await import('@aws-sdk/lib-dynamodb');
  const { eventIdFor } = await import('../shared/events/event-types');
  const { LOCAL_TABLE_NAME } = await import('../shared/data/table-schema');
  const info = JSON.parse(await readFile(join(dataDir, 'stack.json'), 'utf8')) as { dynamodbEndpoint: string };
  const client = DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint: info.dynamodbEndpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
  );
  const now = Date.now();
  const ids = Array.from({ length: count }, (_, i) => eventIdFor(now, `bench-queued:${i}:${randomBytes(4).toString('hex')}`));
  const items = ids.map((id, i) => {
    const messageId = `msg_bench${i}`;
    const body = JSON.stringify({
      kind: 'event',
      workspaceId,
      channelId,
      contactKey: `1415557${String(i).padStart(4, '0')}`,
      event: { id, type: 'message.received', timestamp: new Date(now).toISOString(), data: { channelId } },
    });
    // The table queue's item, as scripts/local/table-step-queue.ts writes it (partition LOCALQ#events).
    return {
      pk: 'LOCALQ#events',
      sk: `${String(now).padStart(15, '0')}#${messageId}`,
      entity: 'localQueueMessage',
      messageId,
      body,
      visibleAt: now,
      receiveCount: 0,
      queue: 'LOCALQ#events',
    };
  });
  for (let i = 0; i < items.length; i += 25) {
    await client.send(new BatchWriteCommand({ RequestItems: { [LOCAL_TABLE_NAME]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) } }));
  }
  const deadline = Date.now() + 120_000;
  const delivered = () => ids.filter((id) => arrivals.has(id));
  while (delivered().length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  const times = delivered().map((id) => arrivals.get(id)!);
  const span = times.length ? (Math.max(...times) - Math.min(...times)) / 1000 || 1 : 1;
  return { ids, perSecond: times.length / span, lost: count - times.length };
}
