import { randomUUID } from 'node:crypto';
import type { Context, SQSEvent } from 'aws-lambda';
import { oneMinuteLoad } from './bounded-work';
import type { Table } from './report';

/**
 * 7 (continued). Nothing lost under load (issue 23), against the bench's dynalite, in this process:
 * - the event re-drive with `orphans` tenant-less items (status webhooks for messages no
 *   send attached) in every outbox shard, older than one due item of a tenant in each:
 *   one pass must hand every due item over;
 * - the deliverer with a backlog of `laneEvents` events on one lane (the receiver failed
 *   while they arrived, then recovers): invocations with a real deadline each, until the
 *   lane is empty. None may run past its deadline; every event arrives once, in order.
 * Ratios and counts in one run, not timed tests.
 */

export interface BoundedEventsResult {
  redrive: { shards: number; orphansPerShard: number; due: number; redriven: number; parked: number; complete: boolean; seconds: number; load: number };
  laneBacklog: {
    events: number;
    delivered: number;
    distinct: number;
    inOrder: boolean;
    invocations: number;
    budgetMs: number;
    longestInvocationMs: number;
    overDeadline: number;
    seconds: number;
    load: number;
  };
}

/** What the deliverer's handler takes and gives (functions/event-deliverer.ts). */
type Deliverer = (event: SQSEvent, context: Context) => Promise<{ batchItemFailures: Array<{ itemIdentifier: string }> }>;

export async function boundedEvents(options: { orphansPerShard: number; laneEvents: number; log: (line: string) => void }): Promise<BoundedEventsResult> {
  const redrive = await redriveWithOrphans(options.orphansPerShard, options.log);
  const laneBacklog = await laneWithBacklog(options.laneEvents, options.log);
  return { redrive, laneBacklog };
}

async function redriveWithOrphans(orphansPerShard: number, log: (line: string) => void): Promise<BoundedEventsResult['redrive']> {
  const { batchPutAll } = await import('../shared/data/batch');
  const { pendingEventAttributes } = await import('../shared/data/event-outbox');
  const { EVENT_OUTBOX_PARTITIONS, eventOutboxShardOf } = await import('../shared/data/keys');
  const { redriveEvents } = await import('../shared/domain/events');
  const { EVENT_REDRIVE_AFTER_MS } = await import('../shared/config');
  const { provideEventQueue } = await import('../shared/queue/event-queue');
  const { eventIdFor } = await import('../shared/events/event-types');

  const handedOver = new Set<string>();
  provideEventQueue({
    async enqueue(message) {
      if (message.kind === 'event' && message.source) handedOver.add(message.source.pk);
    },
  });
  const base = Date.now() - 3_600_000;
  const statusEvent = (at: number, seed: string) => ({
    id: eventIdFor(at, seed),
    type: 'message.status',
    timestamp: new Date(at).toISOString(),
    data: { chatmid: 'wamid.bench', status: 'delivered' },
  });
  // Pointers of random chatmids, sorted into the shards until each holds its orphans and one due item.
  const orphans = new Map(EVENT_OUTBOX_PARTITIONS.map((shard) => [shard, 0]));
  const due = new Map<string, string>();
  const items: Array<{ pk: string; sk: string } & Record<string, unknown>> = [];
  while (due.size < EVENT_OUTBOX_PARTITIONS.length) {
    const key = { pk: `CHATMID#wamid.bench${randomUUID()}`, sk: 'CHATMID' };
    const shard = eventOutboxShardOf(key);
    const count = orphans.get(shard)!;
    if (count < orphansPerShard) {
      const at = base + count;
      items.push({ ...key, status: 'delivered', ...pendingEventAttributes(key, statusEvent(at, key.pk), at) });
      orphans.set(shard, count + 1);
    } else if (!due.has(shard)) {
      // Newer than every orphan of its shard: a page oldest first reaches it last.
      const at = base + orphansPerShard + 1;
      items.push({
        ...key,
        workspaceId: 'wks_bench',
        channelId: 'chn_bench',
        phone: '+15550000001',
        ...pendingEventAttributes(key, statusEvent(at, key.pk), at),
      });
      due.set(shard, key.pk);
    }
  }
  await batchPutAll(items);
  const load = oneMinuteLoad();
  const started = performance.now();
  const result = await redriveEvents(Date.now() + EVENT_REDRIVE_AFTER_MS);
  const seconds = (performance.now() - started) / 1000;
  const redriven = [...due.values()].filter((pk) => handedOver.has(pk)).length;
  log(
    `bounded events: re-drive over ${orphansPerShard} orphans in each of ${due.size} shards: ${redriven} of ${due.size} due items handed over in ${seconds.toFixed(1)} s`,
  );
  return {
    shards: due.size,
    orphansPerShard,
    due: due.size,
    redriven,
    parked: result.parked,
    complete: result.complete,
    seconds,
    load,
  };
}

async function laneWithBacklog(events: number, log: (line: string) => void): Promise<BoundedEventsResult['laneBacklog']> {
  process.env.WEBHOOK_ALLOW_LOOPBACK = 'true';
  process.env.WEBHOOK_RETRY_SCHEDULE = '1';
  const { createTenant } = await import('../test/support/tenants');
  const { callApi } = await import('../test/support/api');
  const { startReceiver } = await import('../test/support/receiver');
  const { sqsEvent } = await import('../test/support/automations');
  const { handler: manageWebhook } = await import('../functions/webhooks-manage');
  const { provideEventQueue } = await import('../shared/queue/event-queue');
  const { eventIdFor } = await import('../shared/events/event-types');
  type EventQueueMessage = import('../shared/queue/event-queue').EventQueueMessage;
  const deliverer = ((await import('../functions/event-deliverer')) as unknown as { handler: Deliverer }).handler;

  const tenant = await createTenant(1);
  const channelId = tenant.channelIds[0];
  const receiver = await startReceiver(`/bench-${randomUUID().slice(0, 8)}`);
  const created = await callApi(manageWebhook, { apiKey: tenant.adminKey, params: { url: receiver.url } });
  if (created.status !== 200) throw new Error(`webhooks/manage answered ${created.status}`);
  receiver.secrets.push(created.body.data.secret);

  const queue: EventQueueMessage[] = [];
  provideEventQueue({
    async enqueue(message) {
      queue.push(message);
    },
  });
  const phone = '14155550777';
  const base = Date.now();
  const ids = Array.from({ length: events }, (_, i) => eventIdFor(base + i, `bench-lane-${i}`));
  const messages: EventQueueMessage[] = ids.map((id, i) => ({
    kind: 'event',
    workspaceId: tenant.workspaceId,
    channelId,
    contactKey: phone,
    event: {
      id,
      type: 'message.status',
      timestamp: new Date(base + i).toISOString(),
      data: {
        channelId,
        chatmid: `wamid.bench${i}`,
        status: 'delivered',
        error: null,
        apiReference: null,
        to: phone,
        timestamp: new Date(base + i).toISOString(),
      },
    },
  }));

  // The deployed deliverer's timeout (the background functions' 60 s, infra/config.ts `runnerTimeoutSeconds`).
  const budgetMs = 60_000;
  let invocations = 0;
  let longest = 0;
  let overDeadline = 0;
  let nextId = 0;
  const invoke = async (batch: EventQueueMessage[]) => {
    const deadline = Date.now() + budgetMs;
    const context = { getRemainingTimeInMillis: () => deadline - Date.now() } as unknown as Context;
    const records = batch.map((message) => ({ messageId: String(nextId++), body: JSON.stringify(message), receiveCount: 1 }));
    const started = Date.now();
    const { batchItemFailures } = await deliverer(sqsEvent(records), context);
    const took = Date.now() - started;
    invocations++;
    longest = Math.max(longest, took);
    if (took > budgetMs) overDeadline++;
    // A failed record comes back, as the queue gives it.
    for (const failure of batchItemFailures) queue.push(JSON.parse(records.find((record) => record.messageId === failure.itemIdentifier)!.body));
  };

  // The backlog: the receiver fails the first attempt, so the lane waits for its retry while every event joins it.
  receiver.script.push(503);
  const load = oneMinuteLoad();
  const started = performance.now();
  for (let i = 0; i < messages.length; i += 10) await invoke(messages.slice(i, i + 10));
  log(`bounded events: ${events} events queued on one lane, ${receiver.received.length} attempt(s) so far; draining`);
  // Then the wake-ups (the retry's, and each hand-off's at a deadline) work the lane until it is empty.
  // A cap for a lane that never empties, not a target: ≈ 100 ms an event at a load of 28 here, so three times that.
  const drainDeadline = Date.now() + Math.max(120_000, events * 300);
  while (queue.length > 0 && Date.now() < drainDeadline) {
    const ready = queue.filter((message) => (message.notBefore ?? 0) <= Date.now()).slice(0, 10);
    if (ready.length === 0) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      continue;
    }
    for (const message of ready) queue.splice(queue.indexOf(message), 1);
    await invoke(ready);
  }
  const seconds = (performance.now() - started) / 1000;
  const succeeded = receiver.received.filter((delivery) => delivery.answered === 200).map((delivery) => delivery.event.id);
  const distinct = new Set(succeeded).size;
  const inOrder = succeeded.every((id, i) => i === 0 || id > succeeded[i - 1]);
  await receiver.close().catch(() => undefined);
  log(`bounded events: lane backlog of ${events}: ${distinct} delivered in ${seconds.toFixed(1)} s, ${invocations} invocations, longest ${longest} ms`);
  return { events, delivered: succeeded.length, distinct, inOrder, invocations, budgetMs, longestInvocationMs: longest, overDeadline, seconds, load };
}

export function boundedEventsTable(result: BoundedEventsResult): Table {
  const { redrive, laneBacklog: lane } = result;
  return {
    headers: ['case', 'measured'],
    rows: [
      [
        `event re-drive: ${redrive.orphansPerShard.toLocaleString('en-US')} orphans ahead of one due item in each of ${redrive.shards} shards, one pass`,
        `${redrive.redriven} of ${redrive.due} due items handed over, ${redrive.parked.toLocaleString('en-US')} orphans parked, pass ${redrive.complete ? 'complete' : 'cut short'}, ${redrive.seconds.toFixed(1)} s; load ${redrive.load}`,
      ],
      [
        `deliverer: a backlog of ${lane.events.toLocaleString('en-US')} events on one lane, ${lane.budgetMs / 1000} s invocations`,
        `${lane.distinct.toLocaleString('en-US')} delivered (${lane.delivered - lane.distinct} twice), ${lane.inOrder ? 'in order' : 'OUT OF ORDER'}, ${lane.invocations} invocations, longest ${(lane.longestInvocationMs / 1000).toFixed(1)} s, ${lane.overDeadline} over the deadline, ${lane.seconds.toFixed(0)} s in all; load ${lane.load}`,
      ],
    ],
  };
}
