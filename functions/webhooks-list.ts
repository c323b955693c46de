import * as v from 'valibot';
import { listWebhooks } from '../shared/domain/integrator-webhooks';
import { apiEndpoint } from '../shared/http/api-handler';
import { channelId } from '../shared/schema/params';

export const schema = v.object({ channelId: channelId() });

export const handler = apiEndpoint({
  path: 'webhooks/list',
  schema,
  channelScoped: true,
  handle: async (_input, { principal, channelId }) => {
    const webhooks = await listWebhooks(principal.workspaceId, channelId);
    return { data: webhooks, message: `Found ${webhooks.length} webhook(s)` };
  },
});
