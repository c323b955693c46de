import * as v from 'valibot';
import { webhookDeliveries } from '../shared/domain/integrator-webhooks';
import { apiEndpoint } from '../shared/http/api-handler';
import { channelId, identifier, integer, text } from '../shared/schema/params';

export const schema = v.object({
  webhookId: identifier(),
  channelId: channelId(),
  status: v.optional(v.picklist(['pending', 'succeeded', 'failed'], 'must be pending, succeeded or failed')),
  limit: v.optional(integer(1, 100)),
  cursor: v.optional(text(1024)),
});

export const handler = apiEndpoint({
  path: 'webhooks/deliveries',
  schema,
  channelScoped: true,
  handle: async (input, { channel }) => {
    const { deliveries, nextCursor } = await webhookDeliveries(channel, input);
    return { data: deliveries, nextCursor, message: `Found ${deliveries.length} deliver${deliveries.length === 1 ? 'y' : 'ies'}` };
  },
});
