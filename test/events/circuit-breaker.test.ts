import { describe, expect, it } from 'vitest';
import { handler as listWebhooks } from '../../functions/webhooks-list';
import { clock } from '../../shared/clock';
import { sweepLanes } from '../../shared/domain/event-delivery';
import { callApi } from '../support/api';
import { newRecipient } from '../support/chat';
import type { Receiver } from '../support/receiver';
import { useWebhookTenant } from '../support/webhook-tenant';

/**
 * The circuit breaker per subscription (shared/domain/event-delivery.ts): a receiver that
 * keeps failing is attempted only by its retry schedule, never once per new event, and
 * webhooks/list shows `failingSince` meanwhile. The real webhook and deliverer handlers
 * over an in-memory queue, a real receiver; the service clock is shifted past each wait.
 */

// Waits far longer than a test: only a shift of the clock ends one.
const chat = useWebhookTenant({ WEBHOOK_RETRY_SCHEDULE: '600,600,600' });
const { subscribe, inbound, drainDue, deliveriesOf } = chat;
const queue = () => chat.pipeline.queue;

const listed = async (webhookId: string) =>
  (await callApi(listWebhooks, { apiKey: chat.tenant.adminKey })).body.data.find((sub: { id: string }) => sub.id === webhookId);

describe('the circuit breaker per subscription', () => {
  it('attempts a failing receiver only by its retry schedule: new events wait without an attempt each, failingSince shows it, a success closes it', async () => {
    // Prepare: the receiver fails its first attempt
    const { receiver, webhookId } = await subscribe(500);
    await inbound(newRecipient());
    await drainDue();
    expect(receiver.received).toHaveLength(1);
    // Act: three other contacts write while it fails
    for (let i = 0; i < 3; i++) await inbound(newRecipient());
    await drainDue();
    const waiting = await deliveriesOf(webhookId);
    const failing = await listed(webhookId);
    // Assess: no attempt for them; they wait for the schedule's time, and webhooks/list says since when it fails
    expect(receiver.received).toHaveLength(1);
    expect(waiting).toHaveLength(4);
    expect(waiting.every((delivery) => delivery.status === 'pending' && delivery.nextAttemptAt !== null)).toBe(true);
    expect(waiting.filter((delivery) => delivery.attempts === 0)).toHaveLength(3);
    expect(Date.parse(failing.failingSince)).toBeLessThanOrEqual(clock.now());
    // Act: the receiver heals; once the wait is over, one attempt probes it, and its success lets the others go
    receiver.fallback = 200;
    for (let round = 0; round < 4 && (await deliveriesOf(webhookId)).some((delivery) => delivery.status !== 'succeeded'); round++) {
      clock.shift(700_000);
      await drainDue();
    }
    // Assess
    expect((await deliveriesOf(webhookId)).map((delivery) => delivery.status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded']);
    expect(receiver.received.map((delivery) => delivery.answered)).toEqual([500, 200, 200, 200, 200]);
    expect((await listed(webhookId)).failingSince).toBeNull();
  });

  /** The lane wake-ups enqueued for `webhookId` since `mark` (an index into the queue's log). */
  const wakeUpsSince = (mark: number, webhookId: string) =>
    queue()
      .sent.slice(mark)
      .filter((message) => message.kind === 'lane' && message.webhookId === webhookId);

  /** Opens the breaker of a new subscription (its first attempt fails), then raises two events for each of three more contacts. */
  async function openWithParkedLanes() {
    const { receiver, webhookId } = await subscribe(500);
    await inbound(newRecipient());
    await drainDue();
    const mark = queue().sent.length;
    const contacts = [newRecipient(), newRecipient(), newRecipient()];
    for (const contact of contacts) await inbound(contact);
    for (const contact of contacts) await inbound(contact);
    await drainDue();
    return { receiver, webhookId, mark };
  }

  /** Each event's arrivals at the receiver that were answered 2xx. */
  const deliveredIds = (receiver: Receiver) => receiver.received.filter((delivery) => delivery.answered === 200).map((delivery) => delivery.event.id);

  it('parks the lanes behind an open breaker: new events for the subscription queue no wake-up and take no attempt', async () => {
    // Prepare, Act: the breaker opens, then six events of three other contacts come
    const { receiver, webhookId, mark } = await openWithParkedLanes();
    // Assess: no wake-up was queued for them (the deliverer never picked one up), and none was attempted
    expect(wakeUpsSince(mark, webhookId)).toEqual([]);
    expect(receiver.received).toHaveLength(1);
    const waiting = await deliveriesOf(webhookId);
    expect(waiting).toHaveLength(7);
    expect(waiting.every((delivery) => delivery.status === 'pending' && delivery.nextAttemptAt !== null)).toBe(true);
  });

  it("wakes every parked lane once the probe succeeds: each event delivered once, a contact's in order", async () => {
    // Prepare
    const { receiver, webhookId, mark } = await openWithParkedLanes();
    receiver.fallback = 200;
    // Act: the probe's time comes; its success wakes the parked lanes
    for (let round = 0; round < 4 && (await deliveriesOf(webhookId)).some((delivery) => delivery.status !== 'succeeded'); round++) {
      clock.shift(700_000);
      await drainDue();
    }
    // Assess
    const delivered = deliveredIds(receiver);
    expect((await deliveriesOf(webhookId)).map((delivery) => delivery.status)).toEqual(Array(7).fill('succeeded'));
    expect(new Set(delivered).size).toBe(7);
    expect(delivered).toHaveLength(7);
    const byContact = new Map<string, string[]>();
    for (const delivery of receiver.received.filter((candidate) => candidate.answered === 200)) {
      const contact = String(delivery.event.data.contact?.phone);
      byContact.set(contact, [...(byContact.get(contact) ?? []), delivery.event.id]);
    }
    for (const ids of byContact.values()) expect(ids).toEqual([...ids].sort());
    // The parked lanes were woken once each (by the probe's success), not once per event or per probe time
    expect(wakeUpsSince(mark, webhookId).filter((message) => message.notBefore === undefined).length).toBeLessThanOrEqual(4);
  });

  it('settles the parked lanes at once when the probe is answered 410: every waiting delivery fails, none waits for the lane sweep', async () => {
    // Prepare: the breaker is open with six events parked; the receiver is gone
    const { receiver, webhookId } = await openWithParkedLanes();
    receiver.fallback = 410;
    // Act: the probe's time comes, and only what the queue holds runs (no lane sweep)
    clock.shift(700_000);
    await drainDue();
    // Assess: the subscription is deactivated, its breaker is no longer open, and every waiting delivery failed as deactivated
    const sub = await listed(webhookId);
    expect(sub.isActive).toBe(false);
    expect(sub.disabledReason).toBe('gone');
    const settled = await deliveriesOf(webhookId);
    expect(settled.map((delivery) => delivery.status)).toEqual(Array(7).fill('failed'));
    expect(
      settled.filter((delivery) => delivery.attempts === 0).every((delivery) => delivery.lastError === 'the subscription was deactivated (410 Gone)'),
    ).toBe(true);
    expect(receiver.received.map((delivery) => delivery.answered)).toEqual([500, 410]);
  });

  it('finds the parked lanes by the lane sweep when the wake-ups are lost, and delivers each event once', async () => {
    // Prepare: the breaker is open with parked lanes; the receiver heals, and every queued message is lost
    const { receiver, webhookId } = await openWithParkedLanes();
    receiver.fallback = 200;
    queue().messages.length = 0;
    // Act: only the lane sweep (every minute) wakes anything
    const woken: number[] = [];
    for (let round = 0; round < 6 && (await deliveriesOf(webhookId)).some((delivery) => delivery.status !== 'succeeded'); round++) {
      clock.shift(700_000);
      const mark = queue().sent.length;
      await sweepLanes(clock.now());
      woken.push(wakeUpsSince(mark, webhookId).length);
      await drainDue();
    }
    // Assess: while the breaker was open the sweep woke one lane, to probe (the others stayed parked), and then the rest
    expect(woken[0]).toBe(1);
    expect((await deliveriesOf(webhookId)).map((delivery) => delivery.status)).toEqual(Array(7).fill('succeeded'));
    const delivered = deliveredIds(receiver);
    expect(new Set(delivered).size).toBe(7);
    expect(delivered).toHaveLength(7);
  });
});
