import * as v from 'valibot';
import { redeliverEvent, Redelivery } from '../shared/domain/integrator-webhooks';
import { apiEndpoint } from '../shared/http/api-handler';
import { described } from '../shared/schema/docs';
import { endpointResponse } from '../shared/schema/responses';
import { channelId, identifier, webhookId } from '../shared/schema/params';

export const schema = v.object({
  webhookId: webhookId(),
  eventId: described(identifier(), 'Id of an event of the channel (events/list, or the `webhook-id` header of a delivery).', 'evt_0mi2k3x9a3f9c2b1d4e5f6a7b8'),
  channelId: channelId(),
});

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
