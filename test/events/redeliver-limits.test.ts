import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as manageWebhook } from '../../functions/webhooks-manage';
import { handler as redeliver } from '../../functions/webhooks-redeliver';
import { clock } from '../../shared/clock';
import { EVENT_RETENTION_SECONDS } from '../../shared/data/events';
import { callApi } from '../support/api';
import { newRecipient, signedInboundText, useChatTenant, type ChatTenant, type WebhookHandler } from '../support/chat';
import { useDeliveryPipeline, type MemoryEventQueue } from '../support/event-queue';
import { newChatmid } from '../support/chatmid';

/**
 * INTERFACE §14: webhooks/redeliver sends a subscription only what it could have
 * received: event types it subscribes to, events not older than it, events still kept
 * (past their retention: 404 even while DynamoDB's TTL has not deleted the item yet).
 */

type Deliverer = Parameters<MemoryEventQueue['drain']>[0];
let tenant: ChatTenant;
let queue: MemoryEventQueue;
let deliverer: Deliverer;
let webhook: WebhookHandler;

useChatTenant(1, (_network, created) => {
  tenant = created;
});

const pipeline = useDeliveryPipeline();

beforeAll(async () => {
  ({ queue, deliverer, webhook } = pipeline);
});

/** A subscription to `events` at a closed local port (attempts fail at once: these tests only redeliver). */
async function subscribe(events: string[]): Promise<string> {
  const created = await callApi(manageWebhook, { apiKey: tenant.adminKey, params: { url: `http://127.0.0.1:1/${randomBytes(4).toString('hex')}`, events } });
  expect(created.status).toBe(200);
  return created.body.data.id;
}

/** A STOP from a new number: its message.received and contact.opted_out events, recorded in the log. */
async function stopEvents(): Promise<{ received: string; optedOut: string }> {
  const delivery = signedInboundText(tenant.channels[0], newRecipient(), 'STOP', newChatmid());
  expect((await webhook(delivery.event)).statusCode).toBe(200);
  const raised = queue.messages.map((entry) => entry.message).filter((message) => message.kind === 'event');
  // Until both are in the log (their attempts' retries are left in the queue).
  await queue.drain(deliverer, { until: () => !queue.messages.some((entry) => entry.message.kind === 'event') });
  const idOf = (type: string) => raised.find((message) => message.event.type === type)!.event.id;
  return { received: idOf('message.received'), optedOut: idOf('contact.opted_out') };
}

const redeliverTo = (webhookId: string, eventId: string) => callApi(redeliver, { apiKey: tenant.adminKey, params: { webhookId, eventId } });

describe('webhooks/redeliver limits', () => {
  it('answers 404 for an event type the subscription does not subscribe to, and redelivers one it does', async () => {
    // Prepare
    const webhookId = await subscribe(['message.received']);
    const events = await stopEvents();
    // Act
    const other = await redeliverTo(webhookId, events.optedOut);
    const subscribed = await redeliverTo(webhookId, events.received);
    // Assess
    expect({ status: other.status, error: other.body.error, parameter: other.body.details?.parameter }).toEqual({
      status: 404,
      error: 'not_found',
      parameter: 'eventId',
    });
    expect(subscribed.status).toBe(200);
  });

  it('answers 404 for an event older than the subscription', async () => {
    // Prepare
    const events = await stopEvents();
    clock.shift(1000);
    const webhookId = await subscribe(['*']);
    // Act
    const older = await redeliverTo(webhookId, events.received);
    // Assess
    expect({ status: older.status, parameter: older.body.details?.parameter }).toEqual({ status: 404, parameter: 'eventId' });
  });

  it('answers 404 for an event past its retention that the TTL has not deleted yet', async () => {
    // Prepare
    const webhookId = await subscribe(['*']);
    const events = await stopEvents();
    // Act
    clock.shift(EVENT_RETENTION_SECONDS * 1000 + 60_000);
    const expired = await redeliverTo(webhookId, events.received);
    // Assess
    expect({ status: expired.status, parameter: expired.body.details?.parameter }).toEqual({ status: 404, parameter: 'eventId' });
  });
});
