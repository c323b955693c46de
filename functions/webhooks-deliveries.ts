import * as v from 'valibot';
import { webhookDeliveries, WebhookDelivery } from '../shared/domain/integrator-webhooks';
import { apiEndpoint } from '../shared/http/api-handler';
import { described } from '../shared/schema/docs';
import { endpointResponse } from '../shared/schema/responses';
import { channelId, cursorOf, integer, text, webhookId } from '../shared/schema/params';

export const schema = v.object({
  webhookId: webhookId(),
  channelId: channelId(),
  status: v.optional(
    described(v.picklist(['pending', 'succeeded', 'failed'], 'must be pending, succeeded or failed'), 'Only deliveries in this state.', 'failed'),
  ),
  limit: v.optional(described(integer(1, 100), 'Page size (default 50).', 20)),
  cursor: v.optional(cursorOf(text(1024))),
});

export const response = endpointResponse({
  data: v.array(WebhookDelivery),
  envelope: 'nextCursor',
  errors: [404],
  description: "The subscription's deliveries, newest event first.",
});

export const handler = apiEndpoint({
  path: 'webhooks/deliveries',
  schema,
  response,
  channelScoped: true,
  handle: async (input, { channel }) => {
    const { deliveries, nextCursor } = await webhookDeliveries(channel, input);
    return { data: deliveries, nextCursor, message: `Found ${deliveries.length} deliver${deliveries.length === 1 ? 'y' : 'ies'}` };
  },
});
