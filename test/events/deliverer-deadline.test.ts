import { randomBytes } from 'node:crypto';
import type { Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as manageWebhook } from '../../functions/webhooks-manage';
import { callApi } from '../support/api';
import { signedInboundText, useChatTenant, type ChatTenant, type WebhookHandler } from '../support/chat';
import { sqsEvent } from '../support/automations';
import { useDeliveryPipeline, type MemoryEventQueue } from '../support/event-queue';
import { startReceiver, type Receiver } from '../support/receiver';

/**
 * The deliverer within its invocation's deadline (functions/event-deliverer.ts): it makes
 * no attempt that could outlast the invocation, and hands the lane's rest to a wake-up,
 * so a backlog never times the function out (which would return the batch to the queue
 * and, after five receives, send the lane's wake-up to the dead-letter queue).
 */

type Deliverer = Parameters<MemoryEventQueue['drain']>[0];
let tenant: ChatTenant;
let queue: MemoryEventQueue;
let deliverer: Deliverer;
let webhook: WebhookHandler;
const receivers: Receiver[] = [];

useChatTenant(1, (_network, t) => {
  tenant = t;
});

const pipeline = useDeliveryPipeline({ WEBHOOK_DELIVERY_TIMEOUT_MS: '400' });

beforeAll(async () => {
  ({ queue, deliverer, webhook } = pipeline);
});

afterAll(async () => {
  for (const receiver of receivers) await receiver.close();
});

async function subscribe(): Promise<{ receiver: Receiver; webhookId: string }> {
  const receiver = await startReceiver(`/hook-${randomBytes(4).toString('hex')}`);
  receivers.push(receiver);
  const created = await callApi(manageWebhook, { apiKey: tenant.adminKey, params: { url: receiver.url } });
  expect(created.status).toBe(200);
  return { receiver, webhookId: created.body.data.id };
}

async function inbound(from: string) {
  expect((await webhook(signedInboundText(tenant.channels[0], from).event)).statusCode).toBe(200);
}

/** A Lambda context with `remainingMs` left. */
const contextWith = (remainingMs: number) => ({ getRemainingTimeInMillis: () => remainingMs }) as unknown as Context;

describe('the deliverer within its invocation deadline', () => {
  it('makes no attempt without time for one, releases the lane and hands it to a wake-up that delivers it', async () => {
    // Prepare
    const { receiver, webhookId } = await subscribe();
    await inbound('14155550901');
    const handedOver = queue.messages.splice(0);
    // Act: an invocation with a second left, less than one attempt needs
    const result = await deliverer(
      sqsEvent(handedOver.map((entry) => ({ messageId: String(entry.id), body: JSON.stringify(entry.message), receiveCount: 1 }))),
      contextWith(1_000),
    );
    const sentBeforeWakeUp = receiver.received.length;
    const wakeUps = queue.messages.filter(({ message }) => message.kind === 'lane' && message.webhookId === webhookId);
    await queue.drain(deliverer, { until: () => receiver.received.length > 0 });
    // Assess
    expect(result.batchItemFailures).toEqual([]);
    expect(sentBeforeWakeUp).toBe(0);
    expect(wakeUps).toHaveLength(1);
    expect(wakeUps[0].message.notBefore ?? 0).toBeLessThanOrEqual(Date.now());
    expect(receiver.received).toHaveLength(1);
  });
});
