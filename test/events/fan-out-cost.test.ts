import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countDbCalls, type CallCounter } from '../../bench/counter';
import { clock } from '../../shared/clock';
import { db } from '../../shared/data/client';
import { recordSubscriptionOutcome } from '../../shared/data/webhook-subscriptions';
import { newRecipient } from '../support/chat';
import { useWebhookTenant } from '../support/webhook-tenant';

/**
 * The table calls of one deliverer batch's fan-out (shared/domain/event-delivery.ts), by
 * command: what the fan-out of an event to its subscriptions' lanes costs, with lanes
 * parked behind open circuit breakers. The real webhook and deliverer handlers over an
 * in-memory queue (its wake-ups are no table calls), real receivers; counted by the
 * bench's SDK middleware (bench/counter.ts) on the shared document client.
 */

// Waits far longer than a test: the breakers opened stay open throughout.
const chat = useWebhookTenant({ WEBHOOK_RETRY_SCHEDULE: '600,600,600' });
const { subscribe, inbound, drainDue, deliveriesOf } = chat;
const queue = () => chat.pipeline.queue;
let counter: CallCounter;

beforeAll(() => {
  counter = countDbCalls(db);
});

afterAll(() => {
  counter.remove();
});

/** Runs exactly one deliverer batch (of up to 10 due messages). */
function drainOneBatch() {
  let batches = 0;
  return queue().drain(chat.pipeline.deliverer, { until: () => batches++ > 0 });
}

describe("the fan-out's table calls", () => {
  it('re-reads the subscriptions once per batch, not once per event, for the lanes it parks behind open breakers', async () => {
    // Prepare: two subscriptions whose breakers are open (their first attempt failed), one healthy
    const failing = [await subscribe(500), await subscribe(500)];
    const healthy = await subscribe(200);
    await inbound(newRecipient());
    await drainDue();
    expect(failing.map(({ receiver }) => receiver.received.length)).toEqual([1, 1]);
    const events = 6;
    for (let i = 0; i < events; i++) await inbound(newRecipient());
    const mark = queue().sent.length;
    // Act: one batch fans the six events out, each to three lanes, two of them parked
    const calls = await counter.count(drainOneBatch);
    // Assess: the subscriptions item read for the batch, and once more after every parking of the batch
    const byCommand = (command: string, target?: string) =>
      calls.filter((call) => call.command === command && (target === undefined || call.target === target)).length;
    expect(byCommand('GetItemCommand', 'WEBHOOKS')).toBe(2);
    // One log write and one tombstone read for the batch; a delivery and a lane place per event and subscription; the source out of the outbox per event
    expect({
      batchWrites: byCommand('BatchWriteItemCommand'),
      batchGets: byCommand('BatchGetItemCommand'),
      puts: byCommand('PutItemCommand'),
      updates: byCommand('UpdateItemCommand'),
      total: calls.length,
    }).toEqual({ batchWrites: 1, batchGets: 1, puts: events * 3, updates: events * 3 + events, total: 3 + 1 + events * 7 });
    // Nothing lost, nothing attempted behind the breakers: every delivery pending, the healthy lanes woken, no parked one
    const wakeUps = queue()
      .sent.slice(mark)
      .filter((message) => message.kind === 'lane');
    expect(wakeUps.map((message) => message.kind === 'lane' && message.webhookId)).toEqual(Array(events).fill(healthy.webhookId));
    for (const { webhookId } of failing) {
      const deliveries = await deliveriesOf(webhookId);
      expect(deliveries.filter((delivery) => delivery.status === 'pending')).toHaveLength(events + 1);
    }
  });

  it("wakes every lane the batch parked when the breaker closes after the batch's read and before its re-read", async () => {
    // Prepare: a subscription whose breaker is open
    const { receiver, webhookId } = await subscribe(500);
    await inbound(newRecipient());
    await drainDue();
    expect(receiver.received).toHaveLength(1);
    const events = 4;
    for (let i = 0; i < events; i++) await inbound(newRecipient());
    const mark = queue().sent.length;
    // The breaker closes as the batch parks its first lane (no unpark message: the closing's Query of parked lanes went by before)
    const channel = { workspaceId: chat.tenant.workspaceId, channelId: chat.tenant.channelIds[0] };
    let closed = false;
    const name = 'close-breaker-on-first-parking';
    db.middlewareStack.add(
      (next) => async (args) => {
        const result = await next(args);
        const key = (args.input as { Key?: { sk?: string } }).Key;
        if (!closed && key?.sk?.startsWith(`LANE#${webhookId}#`)) {
          closed = true;
          expect(await recordSubscriptionOutcome(channel, webhookId, { at: new Date(clock.now()).toISOString(), statusCode: 200, succeeded: true })).toBe(true);
        }
        return result;
      },
      { step: 'initialize', name },
    );
    // Act
    try {
      await drainOneBatch();
    } finally {
      db.middlewareStack.remove(name);
    }
    // Assess: every lane parked in the batch (by the batch's read, from before the closing) is woken by the re-read
    expect(closed).toBe(true);
    const woken = queue()
      .sent.slice(mark)
      .filter((message) => message.kind === 'lane' && message.webhookId === webhookId);
    expect(woken).toHaveLength(events);
  });
});
