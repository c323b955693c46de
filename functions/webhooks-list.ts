import * as v from 'valibot';
import { listWebhooks, Webhook } from '../shared/domain/integrator-webhooks';
import { apiEndpoint } from '../shared/http/api-handler';
import { endpointResponse } from '../shared/schema/responses';
import { channelId } from '../shared/schema/params';

export const schema = v.object({ channelId: channelId() });

export const response = endpointResponse({
  data: v.array(Webhook),
  message: 'Found 1 webhook(s)',
  description: "The channel's subscriptions and how their deliveries fare; never a secret.",
});

export const handler = apiEndpoint({
  path: 'webhooks/list',
  schema,
  response,
  channelScoped: true,
  handle: async (_input, { channel }) => {
    const webhooks = await listWebhooks(channel);
    return { data: webhooks, message: `Found ${webhooks.length} webhook(s)` };
  },
});
