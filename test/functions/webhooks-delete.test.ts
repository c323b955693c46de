import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as deleteWebhook } from '../../functions/webhooks-delete';
import { handler as webhookDeliveries } from '../../functions/webhooks-deliveries';
import { handler as listWebhooks } from '../../functions/webhooks-list';
import { handler as manageWebhook } from '../../functions/webhooks-manage';
import { MAX_WEBHOOKS_PER_CHANNEL } from '../../shared/domain/integrator-webhooks';
import { callApi } from '../support/api';
import { newRecipient, signedInboundText, useChatTenant, type ChatTenant, type WebhookHandler } from '../support/chat';
import { useDeliveryPipeline, type MemoryEventQueue } from '../support/event-queue';
import { startReceiver, type Receiver } from '../support/receiver';
import { workspaceItems } from '../support/table';

/**
 * webhooks/delete (INTERFACE §14): nothing more is delivered to a deleted subscription,
 * its delivery log goes, and it no longer counts toward the channel's ten.
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

const pipeline = useDeliveryPipeline();

beforeAll(async () => {
  ({ queue, deliverer, webhook } = pipeline);
});

afterAll(async () => {
  for (const receiver of receivers) await receiver.close();
});

async function inbound(from: string) {
  expect((await webhook(signedInboundText(tenant.channels[0], from).event)).statusCode).toBe(200);
}

describe('webhooks/delete', () => {
  it('answers {id, deleted: true}; the subscription delivers nothing more, leaves webhooks/list, and its delivery log goes', async () => {
    // Prepare: two subscriptions, one event delivered to both
    const [kept, deleted] = [await startReceiver('/kept'), await startReceiver('/deleted')];
    receivers.push(kept, deleted);
    const keptId = (await callApi(manageWebhook, { apiKey: tenant.adminKey, params: { url: kept.url, events: 'message.received' } })).body.data.id;
    const deletedId = (await callApi(manageWebhook, { apiKey: tenant.adminKey, params: { url: deleted.url, events: 'message.received' } })).body.data.id;
    await inbound(newRecipient());
    await queue.drain(deliverer, { until: () => kept.received.length >= 1 && deleted.received.length >= 1 });
    // Act
    const answer = await callApi(deleteWebhook, { apiKey: tenant.adminKey, params: { webhookId: deletedId } });
    await inbound(newRecipient());
    await queue.drain(deliverer, { until: () => kept.received.length >= 2 });
    const again = await callApi(deleteWebhook, { apiKey: tenant.adminKey, params: { webhookId: deletedId } });
    const listed = await callApi(listWebhooks, { apiKey: tenant.adminKey });
    const log = await callApi(webhookDeliveries, { apiKey: tenant.adminKey, params: { webhookId: deletedId } });
    const items = await workspaceItems({}, tenant.workspaceId);
    // Assess
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({ id: deletedId, deleted: true });
    expect(deleted.received).toHaveLength(1);
    expect(kept.received).toHaveLength(2);
    expect(listed.body.data.map((sub: { id: string }) => sub.id)).toContain(keptId);
    expect(listed.body.data.map((sub: { id: string }) => sub.id)).not.toContain(deletedId);
    expect([again.status, again.body.error, again.body.details?.parameter]).toEqual([404, 'not_found', 'webhookId']);
    expect(log.status).toBe(404);
    expect(items.filter((item) => item.sk.includes(deletedId)).map((item) => item.sk)).toEqual([]);
    expect(items.filter((item) => item.sk.startsWith(`DLV#${keptId}#`))).toHaveLength(2);
  });

  it('frees a place among the channel’s ten, so a wrong url can be replaced', async () => {
    // Prepare: fill the channel to its ten
    const existing = (await callApi(listWebhooks, { apiKey: tenant.adminKey })).body.data as Array<{ id: string }>;
    for (let i = existing.length; i < MAX_WEBHOOKS_PER_CHANNEL; i++) {
      expect((await callApi(manageWebhook, { apiKey: tenant.adminKey, params: { url: `https://example.com/ten/${i}` } })).status).toBe(200);
    }
    const full = await callApi(manageWebhook, { apiKey: tenant.adminKey, params: { url: 'https://example.com/right' } });
    const wrong = (await callApi(listWebhooks, { apiKey: tenant.adminKey })).body.data.at(-1).id;
    // Act
    const removed = await callApi(deleteWebhook, { apiKey: tenant.adminKey, params: { webhookId: wrong } });
    const right = await callApi(manageWebhook, { apiKey: tenant.adminKey, params: { url: 'https://example.com/right' } });
    // Assess
    expect(full.body.error).toBe('limit_reached');
    expect(removed.status).toBe(200);
    expect(right.status).toBe(200);
    expect(right.body.data.created).toBe(true);
  });
});
