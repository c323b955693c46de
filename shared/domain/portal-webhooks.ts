import type { PortalPrincipal } from '../auth/portal-principal';
import { chooseChannel } from '../auth/channel-choice';
import type { ChannelRef } from '../identity';
import { listWebhooks, redeliverEvent, webhookDeliveries, type DeliveryView, type WebhookView } from './integrator-webhooks';
import { portalApiUser } from './portal-user';

/**
 * The developer portal's view of integrators' webhook subscriptions (docs/PORTAL.md): the
 * API's own webhooks/list, webhooks/deliveries and webhooks/redeliver, on the channels of
 * the signed-in user's API user, exactly the channels that user's API keys see (an admin's
 * own, a team user's assigned ones). Channel choice and refusals are the API's
 * (shared/auth/channel-choice.ts): a channel the user may not use is 403, another
 * channel's webhook or event 404. Like the API, both roles may read and redeliver; only
 * changing a subscription (webhooks/manage, webhooks/delete: not in the portal) is admin-only.
 */

/** The subscriptions of one channel, or of every channel the user may use (channel by channel, each oldest first). */
export async function listPortalWebhooks(principal: PortalPrincipal, input: { channelId?: string }): Promise<WebhookView[]> {
  const { channelIds } = await portalApiUser(principal);
  const channels = input.channelId === undefined ? channelIds : [chooseChannel(channelIds, input.channelId)];
  const lists = await Promise.all(channels.map((channelId) => listWebhooks({ workspaceId: principal.workspaceId, channelId })));
  return lists.flat();
}

export async function portalWebhookDeliveries(
  principal: PortalPrincipal,
  input: Parameters<typeof webhookDeliveries>[1] & { channelId?: string },
): Promise<{ deliveries: DeliveryView[]; nextCursor: string | null }> {
  return webhookDeliveries(await portalChannel(principal, input.channelId), input);
}

export async function portalRedeliver(principal: PortalPrincipal, input: { channelId?: string; webhookId: string; eventId: string }) {
  return redeliverEvent(await portalChannel(principal, input.channelId), input.webhookId, input.eventId);
}

async function portalChannel(principal: PortalPrincipal, requested: string | undefined): Promise<ChannelRef> {
  const { channelIds } = await portalApiUser(principal);
  return { workspaceId: principal.workspaceId, channelId: chooseChannel(channelIds, requested) };
}
