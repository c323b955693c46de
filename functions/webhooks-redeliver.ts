import * as v from 'valibot';
import { redeliverEvent } from '../shared/domain/integrator-webhooks';
import { apiEndpoint } from '../shared/http/api-handler';
import { channelId, identifier } from '../shared/schema/params';

export const schema = v.object({ webhookId: identifier(), eventId: identifier(), channelId: channelId() });

export const handler = apiEndpoint({
  path: 'webhooks/redeliver',
  schema,
  channelScoped: true,
  handle: async (input, { channel }) => {
    const data = await redeliverEvent(channel, input.webhookId, input.eventId);
    return { data, message: 'Event queued for delivery again' };
  },
});
