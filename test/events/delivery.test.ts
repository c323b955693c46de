import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as messageStatus } from '../../functions/chat-message-status';
import { handler as sendTemplate } from '../../functions/chat-templates-send';
import { handler as listEvents } from '../../functions/events-list';
import { handler as webhookDeliveries } from '../../functions/webhooks-deliveries';
import { handler as listWebhooks } from '../../functions/webhooks-list';
import { handler as manageWebhook } from '../../functions/webhooks-manage';
import { handler as redeliver } from '../../functions/webhooks-redeliver';
import { webhookEnvelope } from '../../scripts/local/sandbox-webhooks';
import { callApi } from '../support/api';
import { newRecipient, signedInboundText, signedWebhook, useChatTenant, type ChatTenant, type WebhookHandler } from '../support/chat';
import { enqueueEvent } from '../../shared/queue/event-queue';
import { attachChatmid } from '../../shared/data/messages';
import { useDeliveryPipeline, type MemoryEventQueue } from '../support/event-queue';
import { startReceiver, type Receiver } from '../support/receiver';
import { createTenant } from '../support/tenants';
import { newChatmid } from '../support/chatmid';

/**
 * Events end to end at the handler level: state changes through the real webhook and
 * send handlers, the real deliverer over an in-memory queue, a real receiver on
 * 127.0.0.1 that verifies every delivery with the standardwebhooks library.
 */

type Deliverer = Parameters<MemoryEventQueue['drain']>[0];
let tenant: ChatTenant;
let queue: MemoryEventQueue;
let deliverer: Deliverer;
let webhook: WebhookHandler;
const receivers: Receiver[] = [];

let network: Parameters<Parameters<typeof useChatTenant>[1]>[0];
useChatTenant(1, (n, t) => {
  network = n;
  tenant = t;
});

// The timeout ends the one attempt a receiver never answers (`hang`); every other attempt must
// be answered inside it, on a loaded machine too (an answer after it would be retried as a timeout).
const pipeline = useDeliveryPipeline({ WEBHOOK_RETRY_SCHEDULE: '1,1,1', WEBHOOK_DELIVERY_TIMEOUT_MS: '2000' });

beforeAll(async () => {
  ({ queue, deliverer, webhook } = pipeline);
});

afterAll(async () => {
  for (const receiver of receivers) await receiver.close();
});

const channelId = () => tenant.channelIds[0];

/** A receiver registered as a new subscription of the test channel (each test its own url). */
async function subscribe(events?: string[]): Promise<{ receiver: Receiver; webhookId: string; secret: string }> {
  const receiver = await startReceiver(`/hook-${randomBytes(4).toString('hex')}`);
  receivers.push(receiver);
  const created = await callApi(manageWebhook, { apiKey: tenant.adminKey, params: { url: receiver.url, events } });
  expect(created.status).toBe(200);
  receiver.secrets.push(created.body.data.secret);
  return { receiver, webhookId: created.body.data.id, secret: created.body.data.secret };
}

/** An inbound message from `from`, as Meta delivers it (signed), through the real webhook handler. */
async function inbound(from: string, text = 'Hello', chatmid = newChatmid()) {
  const delivery = signedInboundText(tenant.channels[0], from, text, chatmid);
  const result = await webhook(delivery.event);
  expect(result.statusCode).toBe(200);
  return { body: delivery.body, chatmid };
}

async function until(condition: () => boolean | Promise<boolean>, what: string) {
  for (let i = 0; i < 200; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** One subscription to every event type, shared by the tests that filter what it got by their own contact (a channel holds at most 10). */
let everything: ReturnType<typeof subscribe> | undefined;
const subscribeToEverything = () => (everything ??= subscribe());

const deliveriesOf = async (webhookId: string, params: Record<string, unknown> = {}) =>
  (await callApi(webhookDeliveries, { apiKey: tenant.adminKey, params: { webhookId, ...params } })).body;

describe('signed deliveries', () => {
  it('delivers message.received and message.status events that verify with standardwebhooks, and events/list returns the same bodies', async () => {
    // Prepare
    const { receiver, secret } = await subscribeToEverything();
    const from = newRecipient();
    const before = (await callApi(listEvents, { apiKey: tenant.adminKey })).body;
    // Act
    await inbound(from);
    const sent = await callApi(sendTemplate, { apiKey: tenant.adminKey, params: { to: from, templateName: 'hello_world' } });
    const chatmid = sent.body.data.chatmid;
    await until(
      async () => (await callApi(messageStatus, { apiKey: tenant.adminKey, params: { chatmid } })).body.data.status === 'delivered',
      'the delivered status',
    );
    await queue.drain(deliverer, { until: () => receiver.received.length >= 3 });
    let page = await callApi(listEvents, { apiKey: tenant.adminKey, params: { cursor: before.nextCursor ?? undefined, limit: 100 } });
    if (!before.nextCursor) page = await callApi(listEvents, { apiKey: tenant.adminKey, params: { limit: 100 } });
    const mine = receiver.received.filter((delivery) => delivery.event.data.contact?.phone === from || delivery.event.data.to === from);
    const head = await callApi(listEvents, { apiKey: tenant.adminKey, params: { cursor: page.body.nextCursor } });
    // Assess
    expect(mine.map((delivery) => delivery.event.type)).toEqual(['message.received', 'message.status', 'message.status']);
    expect(mine.map((delivery) => delivery.event.data.status ?? null)).toEqual([null, 'sent', 'delivered']);
    for (const delivery of mine) {
      expect(delivery.verifiedBy).toEqual([secret]);
      expect(delivery.webhookId).toBe(delivery.event.id);
    }
    expect(mine[0].event.data).toMatchObject({
      channelId: channelId(),
      type: 'text',
      content: { body: 'Hello' },
      contact: { phone: from, name: 'Ann Customer' },
    });
    expect(mine[1].event.data).toMatchObject({ channelId: channelId(), chatmid, status: 'sent', to: from, error: null, apiReference: null });
    const listed = page.body.data.filter((event: { id: string }) => mine.some((delivery) => delivery.event.id === event.id));
    expect(listed).toEqual(mine.map((delivery) => JSON.parse(delivery.body)));
    expect(head.body.data).toEqual([]);
    expect(head.body.nextCursor).toBeNull();
  });

  it("makes one event of a status Meta delivers twice, sends it once when its hand-off comes again (the re-drive's repeat), and the contact's lane goes on", async () => {
    // Prepare
    const { receiver, webhookId } = await subscribe(['message.received']);
    const from = newRecipient();
    const { body } = await inbound(from, 'first');
    const handOff = queue.messages.find(
      (entry) => entry.message.kind === 'event' && (entry.message.event.data.contact as { phone?: string } | undefined)?.phone === from,
    )!.message;
    // Act: the same inbound delivery again; once delivered, the same hand-off again; then the contact's next message
    await webhook(signedWebhook(body));
    await queue.drain(deliverer, { maxMs: 2000 });
    await enqueueEvent(structuredClone(handOff));
    await queue.drain(deliverer, { maxMs: 1000 });
    await inbound(from, 'second');
    await queue.drain(deliverer, { until: () => receiver.received.length >= 2 });
    await until(async () => (await deliveriesOf(webhookId)).data.length === 2, 'both deliveries recorded');
    // Assess
    expect(receiver.received.map((delivery) => delivery.event.data.content.body)).toEqual(['first', 'second']);
    expect((await deliveriesOf(webhookId)).data).toEqual([
      expect.objectContaining({ status: 'succeeded', attempts: 1 }),
      expect.objectContaining({ eventId: receiver.received[0].webhookId, status: 'succeeded', attempts: 1 }),
    ]);
  });
});

describe('retries, 410 and the delivery log', () => {
  it('retries after a 500 and a timeout with the same webhook-id, then records the success', async () => {
    // Prepare
    const { receiver, webhookId } = await subscribe(['message.received']);
    receiver.script.push(500, 'hang');
    // Act
    await inbound(newRecipient());
    await queue.drain(deliverer, { until: () => receiver.received.length >= 3 });
    await queue.drain(deliverer, { maxMs: 500 });
    const log = await deliveriesOf(webhookId);
    const listed = (await callApi(listWebhooks, { apiKey: tenant.adminKey })).body.data.find((sub: { id: string }) => sub.id === webhookId);
    // Assess
    expect(receiver.received.map((delivery) => delivery.answered)).toEqual([500, 'hang', 200]);
    expect(listed).toMatchObject({ lastStatusCode: 200, lastDeliveryAt: log.data[0].lastAttemptAt, lastAttemptAt: log.data[0].lastAttemptAt });
    expect(new Set(receiver.received.map((delivery) => delivery.webhookId)).size).toBe(1);
    expect(receiver.received.every((delivery) => delivery.verifiedBy.length === 1)).toBe(true);
    expect(log.data).toEqual([
      expect.objectContaining({
        eventId: receiver.received[0].webhookId,
        type: 'message.received',
        status: 'succeeded',
        attempts: 3,
        lastStatusCode: 200,
        nextAttemptAt: null,
      }),
    ]);
  });

  it('fails the delivery after the last retry and sets failingSince', async () => {
    // Prepare
    const { receiver, webhookId } = await subscribe(['message.received']);
    receiver.fallback = 500;
    // Act
    await inbound(newRecipient());
    await queue.drain(deliverer, { until: () => receiver.received.length >= 4 });
    await queue.drain(deliverer, { maxMs: 500 });
    const log = await deliveriesOf(webhookId, { status: 'failed' });
    const listed = (await callApi(listWebhooks, { apiKey: tenant.adminKey })).body.data.find((sub: { id: string }) => sub.id === webhookId);
    // Assess
    expect(receiver.received).toHaveLength(4);
    expect(log.data).toEqual([expect.objectContaining({ status: 'failed', attempts: 4, lastStatusCode: 500, lastError: 'answered HTTP 500' })]);
    expect(listed.failingSince).toEqual(expect.any(String));
    expect(listed.lastStatusCode).toBe(500);
    // Only a success is a delivery; every attempt, failed ones too, moves lastAttemptAt.
    expect(listed.lastDeliveryAt).toBeNull();
    expect(Date.parse(listed.lastAttemptAt)).toBeGreaterThanOrEqual(Date.parse(listed.failingSince));
  });

  it('deactivates a subscription that answers 410', async () => {
    // Prepare
    const { receiver, webhookId } = await subscribe(['message.received']);
    receiver.script.push(410);
    // Act
    await inbound(newRecipient());
    await queue.drain(deliverer, { maxMs: 3000 });
    await inbound(newRecipient());
    await queue.drain(deliverer, { maxMs: 1000 });
    const listed = (await callApi(listWebhooks, { apiKey: tenant.adminKey })).body.data.find((sub: { id: string }) => sub.id === webhookId);
    // Assess
    expect(receiver.received).toHaveLength(1);
    expect(listed).toMatchObject({ isActive: false, disabledReason: 'gone', lastStatusCode: 410 });
  });

  it('redelivers an event with the same webhook-id', async () => {
    // Prepare
    const { receiver, webhookId } = await subscribe(['message.received']);
    await inbound(newRecipient());
    await queue.drain(deliverer, { until: () => receiver.received.length >= 1 });
    const eventId = receiver.received[0].webhookId;
    // Act
    const answer = await callApi(redeliver, { apiKey: tenant.adminKey, params: { webhookId, eventId } });
    await queue.drain(deliverer, { until: () => receiver.received.length >= 2 });
    await until(async () => (await deliveriesOf(webhookId)).data[0]?.status === 'succeeded', 'the redelivery recorded');
    // Assess
    expect(answer.body.data).toEqual({ webhookId, eventId, status: 'pending' });
    expect(receiver.received.map((delivery) => delivery.webhookId)).toEqual([eventId, eventId]);
    expect(receiver.received[1].body).toBe(receiver.received[0].body);
    expect((await deliveriesOf(webhookId)).data[0]).toMatchObject({ eventId, status: 'succeeded', attempts: 1 });
  });

  it('signs with both secrets during a rotation', async () => {
    // Prepare
    const { receiver } = await subscribe(['message.received']);
    const rotated = await callApi(manageWebhook, { apiKey: tenant.adminKey, params: { url: receiver.url, rotateSecret: true } });
    receiver.secrets.push(rotated.body.data.secret);
    // Act
    await inbound(newRecipient());
    await queue.drain(deliverer, { until: () => receiver.received.length >= 1 });
    // Assess
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0].verifiedBy).toEqual(receiver.secrets);
    expect(receiver.received[0].signature.split(' ')).toHaveLength(2);
  });
});

describe('order per contact', () => {
  it("delivers one contact's events in the order they happened, also from concurrent webhooks", async () => {
    // Prepare
    queue.messages.length = 0; // earlier tests' leftover messages out: a batch holds only this test's
    const { receiver } = await subscribe(['message.received']);
    receiver.script.push(500); // the first event holds the lane for a retry while the others wait
    const from = newRecipient();
    // Act
    for (let i = 0; i < 3; i++) await inbound(from, `m${i}`);
    await Promise.all([3, 4, 5].map((i) => inbound(from, `m${i}`)));
    const ids = () => receiver.received.map((delivery) => delivery.event.id);
    await queue.drain(deliverer, { until: () => new Set(ids()).size >= 6 });
    // Assess: each event's first arrival in the order raised; m0 again (its retry) before m1 first comes
    // (an attempt timed out on a loaded machine arrives once more: at least once, so counted by event)
    const firstAttempts = [...new Set(ids())];
    expect(firstAttempts).toHaveLength(6);
    expect(firstAttempts).toEqual([...firstAttempts].sort());
    const bodies = receiver.received.map((delivery) => delivery.event.data.content.body);
    expect(receiver.received[0].answered).toBe(500);
    const beforeM1 = bodies.slice(0, bodies.indexOf('m1'));
    expect(beforeM1.length).toBeGreaterThanOrEqual(2);
    expect(new Set(beforeM1)).toEqual(new Set(['m0']));
  });
});

describe('cause before effect', () => {
  it("puts a STOP's contact.opted_out after the message.received of the STOP itself, in events/list and in deliveries", async () => {
    // Prepare
    const { receiver } = await subscribeToEverything();
    const from = newRecipient();
    // Each event once, at its first arrival: an attempt the deliverer timed out on a loaded machine is sent again (at least once, same webhook-id).
    const mine = () =>
      receiver.received.filter(
        (delivery, i, all) => delivery.event.data.contact?.phone === from && all.findIndex((other) => other.webhookId === delivery.webhookId) === i,
      );
    await inbound(from, 'hi');
    // Act
    const { chatmid } = await inbound(from, 'STOP');
    await inbound(from, 'START');
    await queue.drain(deliverer, { until: () => mine().length >= 5 });
    const all: Array<{ type: string; data: { chatmid?: string; contact?: { phone?: string }; content?: { body?: string }; keyword?: string } }> = [];
    for (let cursor: string | undefined; ;) {
      const page = (await callApi(listEvents, { apiKey: tenant.adminKey, params: { limit: 100, cursor } })).body;
      all.push(...page.data);
      if (!page.data.length || !page.nextCursor) break;
      cursor = page.nextCursor;
    }
    const listed = all.filter((event) => event.data.contact?.phone === from);
    // Assess
    const expected = [
      ['message.received', 'hi'],
      ['message.received', 'STOP'],
      ['contact.opted_out', 'STOP'],
      ['message.received', 'START'],
      ['contact.opted_in', 'START'],
    ];
    const shown = (event: { type: string; data: { content?: { body?: string }; keyword?: string } }) => [
      event.type,
      event.data.content?.body ?? event.data.keyword,
    ];
    expect(listed.map(shown)).toEqual(expected);
    expect(mine().map((delivery) => shown(delivery.event))).toEqual(expected);
    expect(listed[1].data.chatmid).toBe(chatmid);
  });
});

describe('a status ahead of its send', () => {
  it('is handed over with the next status, ahead of it, once the send has attached the message', async () => {
    // Prepare: the chat network reports sent before the send's answer is recorded (no tenant yet: nothing to hand over)
    const channel = tenant.channels[0];
    const [chatmid, to] = [newChatmid(), newRecipient()];
    const status = (value: string) =>
      webhookEnvelope(
        { phoneNumberId: channel.phoneNumberId, wabaId: channel.wabaId!, displayPhoneNumber: '15550000000' },
        { statuses: [{ id: chatmid, status: value, timestamp: String(Math.floor(Date.now() / 1000)), recipient_id: to }] },
      );
    const handedOver = () =>
      queue.messages.flatMap(({ message }) => (message.kind === 'event' && message.event.data.chatmid === chatmid ? [message.event.data.status] : []));
    await webhook(signedWebhook(status('sent')));
    const beforeAttach = handedOver();
    // Act: the send attaches, then delivered comes
    await new Promise((resolve) => setTimeout(resolve, 2));
    await attachChatmid({
      ...{ chatmid, workspaceId: tenant.workspaceId, channelId: channelId(), messageId: 'msg_ahead', direction: 'outbound', type: 'text' },
      ...{ content: { body: 'ahead' }, phone: to, at: Date.now(), phoneNumberId: channel.phoneNumberId },
    });
    await webhook(signedWebhook(status('delivered')));
    // Assess: both in the contact's group, sent first
    expect(beforeAttach).toEqual([]);
    expect(handedOver()).toEqual(['sent', 'delivered']);
  });

  it('is handed over as soon as the send it belongs to is attached: here a send of unknown outcome the status settles', async () => {
    // Prepare: the send times out at the chat network (5xx), so its outcome is unknown
    const channel = tenant.channels[0];
    const [chatmid, to] = [newChatmid(), newRecipient()];
    network.sandbox.injectFault({ kind: '5xx', path: 'messages' });
    const send = await callApi(sendTemplate, { apiKey: tenant.adminKey, params: { to, templateName: 'hello_world' } });
    const sent = webhookEnvelope(
      { phoneNumberId: channel.phoneNumberId, wabaId: channel.wabaId!, displayPhoneNumber: '15550000000' },
      { statuses: [{ id: chatmid, status: 'sent', timestamp: String(Math.floor(Date.now() / 1000)), recipient_id: to }] },
    );
    // Act: the status of the unknown chatmid arrives; it settles the send, which attaches it
    await webhook(signedWebhook(sent));
    // Assess: its event handed over at once, not 30 s later by the re-drive
    expect(send.status).toBeGreaterThanOrEqual(500);
    const handed = queue.messages.filter(({ message }) => message.kind === 'event' && message.event.data.chatmid === chatmid);
    expect(handed.map(({ message }) => (message.kind === 'event' ? [message.event.data.status, message.event.data.to] : []))).toEqual([['sent', to]]);
  });
});

describe('order per contact under concurrent status webhooks', () => {
  it("delivers one contact's message.status events in the order they were recorded", async () => {
    // Prepare: three sends to one contact (earlier tests' leftover messages out of the queue: a batch holds only this test's)
    queue.messages.length = 0;
    const { receiver } = await subscribe(['message.status']);
    const to = newRecipient();
    const chatmids: string[] = [];
    for (let i = 0; i < 3; i++)
      chatmids.push((await callApi(sendTemplate, { apiKey: tenant.adminKey, params: { to, templateName: 'hello_world' } })).body.data.chatmid);
    const channel = tenant.channels[0];
    const status = (chatmid: string, value: string) =>
      webhookEnvelope(
        { phoneNumberId: channel.phoneNumberId, wabaId: channel.wabaId!, displayPhoneNumber: '15550000000' },
        { statuses: [{ id: chatmid, status: value, timestamp: String(Math.floor(Date.now() / 1000)), recipient_id: to }] },
      );
    // Act: every message read, all webhooks at once (besides the sandbox's own sent and delivered)
    await Promise.all(chatmids.map((chatmid) => webhook(signedWebhook(status(chatmid, 'read')))));
    const readOf = (chatmid: string) => receiver.received.some((d) => d.event.data.chatmid === chatmid && d.event.data.status === 'read');
    await queue.drain(deliverer, { until: () => chatmids.every(readOf) });
    // Assess
    const ids = receiver.received.filter((d) => d.event.data.to === to).map((d) => d.event.id);
    expect(chatmids.every(readOf)).toBe(true);
    expect(ids).toEqual([...ids].sort());
    expect(new Set(ids).size).toBe(ids.length);
    for (const chatmid of chatmids) {
      const statuses = receiver.received.filter((d) => d.event.data.chatmid === chatmid).map((d) => d.event.data.status);
      expect(statuses).toEqual(['sent', 'delivered', 'read'].filter((value) => statuses.includes(value)));
    }
  });
});

describe('isolation', () => {
  it("answers another workspace's webhookId and eventId with 404, and its channel with 403", async () => {
    // Prepare
    const { receiver, webhookId } = await subscribe(['message.received']);
    await inbound(newRecipient());
    await queue.drain(deliverer, { until: () => receiver.received.length >= 1 });
    const eventId = receiver.received[0].webhookId;
    const other = await createTenant(1);
    // Act
    const deliveries = await callApi(webhookDeliveries, { apiKey: other.adminKey, params: { webhookId } });
    const again = await callApi(redeliver, { apiKey: other.adminKey, params: { webhookId, eventId } });
    const foreignEvent = await callApi(redeliver, { apiKey: tenant.adminKey, params: { webhookId, eventId: 'evt_000000000aaaaaaaaaaaaaaaa' } });
    const events = await callApi(listEvents, { apiKey: other.adminKey, params: { channelId: channelId() } });
    const cursor = (await callApi(listEvents, { apiKey: tenant.adminKey, params: { limit: 1 } })).body.nextCursor;
    const otherCursor = await callApi(listEvents, { apiKey: other.adminKey, params: { cursor } });
    // Assess
    expect(deliveries.status).toBe(404);
    expect(again.status).toBe(404);
    expect(foreignEvent.status).toBe(404);
    expect(events.status).toBe(403);
    expect(otherCursor.status).toBe(400);
    expect(otherCursor.body.details).toEqual({ parameter: 'cursor' });
  });
});
