import * as v from 'valibot';
import { described } from './docs';
import { channelId, cursorOf, identifier, integer, text, webhookId } from './params';

/**
 * The parameters of a subscription's delivery log and of a redelivery: the API's
 * webhooks/deliveries and webhooks/redeliver and the developer portal's routes of the same
 * name take the same ones, with the same meaning.
 */
export const deliveriesParameters = {
  webhookId: webhookId(),
  channelId: channelId(),
  status: v.optional(
    described(v.picklist(['pending', 'succeeded', 'failed'], 'must be pending, succeeded or failed'), 'Only deliveries in this state.', 'failed'),
  ),
  limit: v.optional(described(integer(1, 100), 'Page size (default 50).', 20)),
  cursor: v.optional(cursorOf(text(1024))),
};

export const redeliverParameters = {
  webhookId: webhookId(),
  eventId: described(identifier(), 'Id of an event of the channel (events/list, or the `webhook-id` header of a delivery).', 'evt_0mi2k3x9a3f9c2b1d4e5f6a7b8'),
  channelId: channelId(),
};
