import { randomBytes } from 'node:crypto';
import { afterAll, expect } from 'vitest';
import { handler as webhookDeliveries } from '../../functions/webhooks-deliveries';
import { handler as manageWebhook } from '../../functions/webhooks-manage';
import { clock } from '../../shared/clock';
import { callApi } from './api';
import { signedInboundText, useChatTenant, type ChatTenant } from './chat';
import { useDeliveryPipeline, type DeliveryPipeline } from './event-queue';
import { startReceiver, type Receiver } from './receiver';
import { newChatmid } from './chatmid';

/** A delivery as webhooks/deliveries lists it. */
export interface ListedDelivery {
  status: string;
  attempts: number;
  nextAttemptAt: string | null;
  lastError: string | null;
}

/**
 * A deliverer test file's chat tenant (one channel) with the delivery pipeline
 * ({@link useDeliveryPipeline}) and its receivers: subscriptions to `message.received`,
 * inbound messages that raise it, the queue drained of what is due. The service clock is
 * reset and the receivers closed after the file.
 */
export interface WebhookTenant {
  readonly tenant: ChatTenant;
  readonly pipeline: DeliveryPipeline;
  /** A new subscription with a receiver of its own, answering `answer` (200 unless told). */
  subscribe(answer?: number): Promise<{ receiver: Receiver; webhookId: string }>;
  /** A signed inbound text from `from` through the chat webhook: one `message.received`. */
  inbound(from: string): Promise<void>;
  /** Drains what is due now: the in-memory queue keeps what waits for a later time. */
  drainDue(): Promise<void>;
  deliveriesOf(webhookId: string): Promise<ListedDelivery[]>;
}

export function useWebhookTenant(env: Record<string, string> = {}): WebhookTenant {
  let tenant: ChatTenant;
  const receivers: Receiver[] = [];
  useChatTenant(1, (_network, t) => {
    tenant = t;
  });
  const pipeline = useDeliveryPipeline(env);
  afterAll(async () => {
    clock.reset();
    for (const receiver of receivers) await receiver.close();
  });
  return {
    get tenant() {
      return tenant;
    },
    pipeline,
    async subscribe(answer = 200) {
      const receiver = await startReceiver(`/hook-${randomBytes(4).toString('hex')}`);
      receivers.push(receiver);
      receiver.fallback = answer;
      const created = await callApi(manageWebhook, { apiKey: tenant.adminKey, params: { url: receiver.url, events: ['message.received'] } });
      expect(created.status).toBe(200);
      receiver.secrets.push(created.body.data.secret);
      return { receiver, webhookId: created.body.data.id };
    },
    async inbound(from) {
      const delivery = signedInboundText(tenant.channels[0], from, 'Hello', newChatmid());
      expect((await pipeline.webhook(delivery.event)).statusCode).toBe(200);
    },
    drainDue() {
      const { queue, deliverer } = pipeline;
      return queue.drain(deliverer, { until: () => queue.messages.every((entry) => (entry.message.notBefore ?? 0) > clock.now()) });
    },
    async deliveriesOf(webhookId) {
      return (await callApi(webhookDeliveries, { apiKey: tenant.adminKey, params: { webhookId } })).body.data as ListedDelivery[];
    },
  };
}
