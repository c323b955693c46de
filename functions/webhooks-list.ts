import * as v from 'valibot';
import { listWebhooks } from '../shared/domain/integrator-webhooks';
import { apiEndpoint } from '../shared/http/api-handler';
import { channelId } from '../shared/schema/params';

export const schema = v.object({ channelId: channelId() });

export const handler = apiEndpoint({
  path: 'webhooks/list',
  schema,
  channelScoped: true,
  handle: async (_input, { channel }) => {
    const webhooks = await listWebhooks(channel);
    return { data: webhooks, message: `Found ${webhooks.length} webhook(s)` };
  },
});
