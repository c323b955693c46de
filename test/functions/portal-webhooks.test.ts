/**
 * The portal's webhook routes against dynalite (docs/PORTAL.md): the API's webhooks/list,
 * webhooks/deliveries and webhooks/redeliver on the channels of the signed-in user's API
 * user (an admin's own, a team user's assigned ones), the real deliverer and a receiver
 * that verifies every delivery.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as apiDeliveries } from '../../functions/webhooks-deliveries';
import { handler as apiList } from '../../functions/webhooks-list';
import { handler as manageWebhook } from '../../functions/webhooks-manage';
import { handler as portalDeliveries } from '../../functions/portal-webhooks-deliveries';
import { handler as portalList } from '../../functions/portal-webhooks-list';
import { handler as portalRedeliver } from '../../functions/portal-webhooks-redeliver';
import { callApi } from '../support/api';
import { signedInboundText, newRecipient, useChatTenant, type ChatTenant, type WebhookHandler } from '../support/chat';
import { useDeliveryPipeline, type MemoryEventQueue } from '../support/event-queue';
import { callPortal, type PortalUser } from '../support/portal';
import { startReceiver, type Receiver } from '../support/receiver';
import { createTeamKey, createTenant } from '../support/tenants';

type Deliverer = Parameters<MemoryEventQueue['drain']>[0];
let tenant: ChatTenant;
let queue: MemoryEventQueue;
let deliverer: Deliverer;
let webhook: WebhookHandler;
let receiver: Receiver;
let admin: PortalUser;
let team: PortalUser;
let stranger: PortalUser;
/** The receiver's subscription on channel 0 (the team user's), and another on channel 1 (the admin's only). */
let assignedId: string;
let otherId: string;
useChatTenant(2, (_network, t) => {
  tenant = t;
});

const pipeline = useDeliveryPipeline();

beforeAll(async () => {
  ({ queue, deliverer, webhook } = pipeline);
  receiver = await startReceiver('/portal');
  const [assigned, other] = tenant.channelIds;
  const teamUser = await createTeamKey(tenant, [assigned]);
  const globex = await createTenant();
  admin = { email: 'admin@acme.test', workspaceId: tenant.workspaceId, apiUserId: tenant.adminUserId, role: 'admin', permissions: ['settings:api'] };
  team = { email: 'team@acme.test', workspaceId: tenant.workspaceId, apiUserId: teamUser.userId, role: 'team', permissions: ['settings:api'] };
  stranger = { email: 'admin@globex.test', workspaceId: globex.workspaceId, apiUserId: globex.adminUserId, role: 'admin', permissions: ['settings:api'] };
  const subscribe = async (channelId: string, url: string) =>
    (await callApi(manageWebhook, { apiKey: tenant.adminKey, params: { channelId, url, events: 'message.received' } })).body.data.id as string;
  assignedId = await subscribe(assigned, receiver.url);
  otherId = await subscribe(other, 'https://example.com/portal-other');
  expect((await webhook(signedInboundText(tenant.channels[0], newRecipient()).event)).statusCode).toBe(200);
  await queue.drain(deliverer, { until: () => receiver.received.length >= 1 });
});

afterAll(async () => {
  await receiver?.close();
});

describe('the portal’s webhook subscriptions', () => {
  it('lists the subscriptions of every channel the user may use, as the API lists them; a team user sees their assigned channel’s only', async () => {
    // Act
    const adminList = await callPortal(portalList, admin);
    const teamList = await callPortal(portalList, team);
    const oneChannel = await callPortal(portalList, admin, { channelId: tenant.channelIds[1] });
    const viaApi = await callApi(apiList, { apiKey: tenant.adminKey, params: { channelId: tenant.channelIds[0] } });

    // Assess
    expect(adminList.status).toBe(200);
    // Channel by channel, in the order of their ids
    const expected = [
      [tenant.channelIds[0], assignedId],
      [tenant.channelIds[1], otherId],
    ].sort(([a], [b]) => a.localeCompare(b));
    expect(adminList.body.map((sub: { id: string; channelId: string }) => [sub.channelId, sub.id])).toEqual(expected);
    expect(teamList.body).toEqual(viaApi.body.data);
    expect(teamList.body[0]).toMatchObject({ id: assignedId, url: receiver.url, isActive: true, lastStatusCode: 200 });
    expect(JSON.stringify(adminList.body)).not.toContain('whsec_');
    expect(oneChannel.body.map((sub: { id: string }) => sub.id)).toEqual([otherId]);
  });

  it('shows a subscription’s deliveries as the API does, and redelivers one: the receiver gets the event again with the same webhook-id', async () => {
    // Act
    const log = await callPortal(portalDeliveries, team, { channelId: tenant.channelIds[0], webhookId: assignedId });
    const viaApi = await callApi(apiDeliveries, { apiKey: tenant.adminKey, params: { channelId: tenant.channelIds[0], webhookId: assignedId } });
    const eventId = log.body.deliveries[0].eventId;
    const redelivered = await callPortal(portalRedeliver, team, { channelId: tenant.channelIds[0], webhookId: assignedId, eventId }, 'POST');
    await queue.drain(deliverer, { until: () => receiver.received.length >= 2 });
    const after = await callPortal(portalDeliveries, team, { webhookId: assignedId });

    // Assess
    expect(log.status).toBe(200);
    expect(log.body).toEqual({ deliveries: viaApi.body.data, nextCursor: null });
    expect(log.body.deliveries).toEqual([expect.objectContaining({ eventId: receiver.received[0].webhookId, type: 'message.received', status: 'succeeded' })]);
    expect([redelivered.status, redelivered.body]).toEqual([200, { webhookId: assignedId, eventId, status: 'pending' }]);
    expect(receiver.received.map((delivery) => delivery.webhookId)).toEqual([eventId, eventId]);
    expect(after.body.deliveries).toEqual([expect.objectContaining({ eventId, status: 'succeeded', attempts: 1 })]);
  });

  it('keeps users to their channels: another channel is 403, another channel’s webhook or another workspace’s 404, no permission 403', async () => {
    // Act
    const teamOtherChannel = await callPortal(portalList, team, { channelId: tenant.channelIds[1] });
    const teamOtherDeliveries = await callPortal(portalDeliveries, team, { channelId: tenant.channelIds[1], webhookId: otherId });
    const teamOtherWebhook = await callPortal(portalDeliveries, team, { webhookId: otherId });
    const strangerDeliveries = await callPortal(portalDeliveries, stranger, { webhookId: assignedId });
    const strangerRedeliver = await callPortal(
      portalRedeliver,
      stranger,
      { channelId: tenant.channelIds[0], webhookId: assignedId, eventId: receiver.received[0].webhookId },
      'POST',
    );
    const strangerList = await callPortal(portalList, stranger);
    const viewer = await callPortal(portalList, { ...team, permissions: [] });

    // Assess
    const refusal = (answer: { status: number; body: { error: string; details?: { parameter?: string } } }) => [
      answer.status,
      answer.body.error,
      answer.body.details?.parameter,
    ];
    expect(refusal(teamOtherChannel)).toEqual([403, 'forbidden', 'channelId']);
    expect(refusal(teamOtherDeliveries)).toEqual([403, 'forbidden', 'channelId']);
    expect(refusal(teamOtherWebhook)).toEqual([404, 'not_found', 'webhookId']);
    expect(refusal(strangerDeliveries)).toEqual([404, 'not_found', 'webhookId']);
    expect(refusal(strangerRedeliver)).toEqual([403, 'forbidden', 'channelId']);
    expect(strangerList.body).toEqual([]);
    expect([viewer.status, viewer.body.message]).toEqual([403, expect.stringContaining('settings:api')]);
    expect(receiver.received).toHaveLength(2);
  });

  it('refuses bad input by name and an unknown parameter, writing nothing', async () => {
    // Act
    const noWebhook = await callPortal(portalDeliveries, admin, { channelId: tenant.channelIds[0] });
    const badStatus = await callPortal(portalDeliveries, admin, { channelId: tenant.channelIds[0], webhookId: assignedId, status: 'lost' });
    const unknownEvent = await callPortal(portalRedeliver, admin, { channelId: tenant.channelIds[0], webhookId: assignedId, eventId: 'evt_nope' }, 'POST');
    const unknown = await callPortal(portalList, admin, { channel: tenant.channelIds[0] });
    const noChannel = await callPortal(portalDeliveries, admin, { webhookId: assignedId });

    // Assess
    expect([noWebhook.status, noWebhook.body.details?.parameter]).toEqual([400, 'webhookId']);
    expect([badStatus.status, badStatus.body.details?.parameter]).toEqual([400, 'status']);
    expect([unknownEvent.status, unknownEvent.body.details?.parameter]).toEqual([404, 'eventId']);
    expect([unknown.status, unknown.body.error, unknown.body.details?.parameter]).toEqual([400, 'unknown_parameter', 'channel']);
    expect([noChannel.status, noChannel.body.error]).toEqual([400, 'channel_required']);
    expect(receiver.received).toHaveLength(2);
  });
});
