import * as v from 'valibot';
import { deleteWebhook, DeletedWebhook } from '../shared/domain/integrator-webhooks';
import { apiEndpoint } from '../shared/http/api-handler';
import { channelId, webhookId } from '../shared/schema/params';
import { endpointResponse } from '../shared/schema/responses';

/** webhooks/delete: an admin removes one of the channel's webhook subscriptions for good. */
export const schema = v.object({
  webhookId: webhookId(),
  channelId: channelId(),
});

export const response = endpointResponse({
  data: DeletedWebhook,
  message: 'Webhook deleted',
  errors: [404],
  description: 'The subscription is gone: nothing more is delivered to it, its delivery log is deleted and it no longer counts toward the 10 a channel.',
});

export const handler = apiEndpoint({
  path: 'webhooks/delete',
  schema,
  response,
  channelScoped: true,
  handle: async (input, { channel }) => ({ data: await deleteWebhook(channel, input.webhookId), message: 'Webhook deleted' }),
});
