import * as v from 'valibot';
import { webhookDeliveries, WebhookDelivery } from '../shared/domain/integrator-webhooks';
import { apiEndpoint } from '../shared/http/api-handler';
import { endpointResponse } from '../shared/schema/responses';
import { deliveriesParameters } from '../shared/schema/webhook-params';

export const schema = v.object(deliveriesParameters);

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
