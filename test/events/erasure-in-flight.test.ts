import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as deleteContact } from '../../functions/contacts-delete';
import { handler as listEvents } from '../../functions/events-list';
import { handler as webhookDeliveries } from '../../functions/webhooks-deliveries';
import { handler as manageWebhook } from '../../functions/webhooks-manage';
import { writeTombstone } from '../../shared/data/erasure-tombstones';
import { clock } from '../../shared/clock';
import { callApi } from '../support/api';
import { newRecipient, signedInboundText, useChatTenant, type ChatTenant, type WebhookHandler } from '../support/chat';
import { useDeliveryPipeline, type MemoryEventQueue } from '../support/event-queue';
import { startReceiver, type Receiver } from '../support/receiver';
import { newChatmid } from '../support/chatmid';

/**
 * INTERFACE §15: events of a contact raised before its erasure and not yet delivered are
 * not delivered, and none of them is in events/list afterwards. The races are held
 * deterministically: an event waits in the queue (or its contact's earlier event waits
 * in a receiver that holds its answer) while contacts/delete runs, and is released after.
 */

type Deliverer = Parameters<MemoryEventQueue['drain']>[0];
let tenant: ChatTenant;
let queue: MemoryEventQueue;
let deliverer: Deliverer;
let webhook: WebhookHandler;
let receiver: Receiver;
let webhookId: string;

useChatTenant(1, (_network, created) => {
  tenant = created;
});

const pipeline = useDeliveryPipeline();

beforeAll(async () => {
  ({ queue, deliverer, webhook } = pipeline);
  receiver = await startReceiver('/erasure');
  const created = await callApi(manageWebhook, { apiKey: tenant.adminKey, params: { url: receiver.url } });
  receiver.secrets.push(created.body.data.secret);
  webhookId = created.body.data.id;
});

afterAll(async () => {
  await receiver?.close();
});

async function inbound(from: string, text: string) {
  expect((await webhook(signedInboundText(tenant.channels[0], from, text, newChatmid()).event)).statusCode).toBe(200);
}

const erase = async (phone: string) => expect((await callApi(deleteContact, { apiKey: tenant.adminKey, params: { phoneNumber: phone } })).status).toBe(200);

/** Every event events/list shows, all pages. */
async function allListedEvents(): Promise<Array<{ id: string; data: Record<string, any> }>> {
  const events: Array<{ id: string; data: Record<string, any> }> = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await callApi(listEvents, { apiKey: tenant.adminKey, params: { limit: 100, cursor } });
    events.push(...page.body.data);
    if (page.body.data.length === 0 || !page.body.nextCursor) return events;
    cursor = page.body.nextCursor;
  }
}

const ofPhone = (phone: string) => (event: { data: Record<string, any> }) => event.data.contact?.phone === phone || event.data.to === phone;

async function until(condition: () => boolean, what: string) {
  for (let i = 0; i < 400; i++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('an erasure while events are in flight', () => {
  it('delivers no event the contact raised before the erasure (still queued), lists none of them, and delivers the number’s events after it', async () => {
    // Prepare
    const phone = newRecipient();
    await inbound(phone, 'my secret before the erasure');
    // Act
    await erase(phone);
    await queue.drain(deliverer);
    await inbound(phone, 'hello again, after the erasure');
    await queue.drain(deliverer, { until: () => receiver.received.some((delivery) => delivery.event.data.content?.body === 'hello again, after the erasure') });
    // Assess
    const delivered = receiver.received.filter((delivery) => ofPhone(phone)(delivery.event));
    expect(delivered.map((delivery) => delivery.event.data.content?.body)).toEqual(['hello again, after the erasure']);
    const listed = (await allListedEvents()).filter(ofPhone(phone));
    expect(listed.map((event) => event.data.content?.body)).toEqual(['hello again, after the erasure']);
  });

  it('does not send a later event of the contact that waited behind a delivery held open across the erasure, and lists neither', async () => {
    // Prepare
    const phone = newRecipient();
    await inbound(phone, 'first, held at the receiver');
    await inbound(phone, 'second, queued behind it');
    receiver.script.push('hold');
    const before = receiver.received.length;
    const draining = queue.drain(deliverer);
    await until(() => receiver.received.length > before, 'the first delivery to reach the receiver');
    // Act
    await erase(phone);
    receiver.release();
    await draining;
    // Assess
    const delivered = receiver.received.filter((delivery) => ofPhone(phone)(delivery.event));
    expect(delivered.map((delivery) => delivery.event.data.content?.body)).toEqual(['first, held at the receiver']);
    expect((await allListedEvents()).filter(ofPhone(phone))).toEqual([]);
    const deliveries = (await callApi(webhookDeliveries, { apiKey: tenant.adminKey, params: { webhookId, limit: 100 } })).body.data;
    const erasedIds = new Set(delivered.map((delivery) => delivery.event.id));
    expect(deliveries.filter((delivery: { eventId: string }) => erasedIds.has(delivery.eventId))).toEqual([]);
  });

  it('lists no event of a contact whose erasure stopped after its tombstone, before its events were deleted, and lists the number’s later events', async () => {
    // Prepare: an event logged and delivered, then an erasure that crashed right after its step 2 (the tombstone;
    // the same state as the deliverer's log write landing after the erasure's deletion, before its own check).
    const phone = newRecipient();
    await inbound(phone, 'logged before the erasure');
    await queue.drain(deliverer, { until: () => receiver.received.some((delivery) => delivery.event.data.content?.body === 'logged before the erasure') });
    await writeTombstone({ workspaceId: tenant.workspaceId, channelId: tenant.channelIds[0] }, phone, clock.now());
    // Act
    await inbound(phone, 'after the erasure');
    await queue.drain(deliverer, { until: () => receiver.received.some((delivery) => delivery.event.data.content?.body === 'after the erasure') });
    // Assess
    const listed = (await allListedEvents()).filter(ofPhone(phone));
    expect(listed.map((event) => event.data.content?.body)).toEqual(['after the erasure']);
  });
});
