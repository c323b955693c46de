import * as v from 'valibot';
import { redeliverEvent, Redelivery } from '../shared/domain/integrator-webhooks';
import { apiEndpoint } from '../shared/http/api-handler';
import { endpointResponse } from '../shared/schema/responses';
import { redeliverParameters } from '../shared/schema/webhook-params';

export const schema = v.object(redeliverParameters);

export const response = endpointResponse({
  data: Redelivery,
  message: 'Event queued for delivery again',
  errors: [404, 409],
  description: 'The event is queued for the subscription again, with the same webhook-id.',
});

export const handler = apiEndpoint({
  path: 'webhooks/redeliver',
  schema,
  response,
  channelScoped: true,
  handle: async (input, { channel }) => {
    const data = await redeliverEvent(channel, input.webhookId, input.eventId);
    return { data, message: 'Event queued for delivery again' };
  },
});
