import * as v from 'valibot';
import { listApprovedTemplates } from '../shared/domain/templates';
import { apiEndpoint } from '../shared/http/api-handler';
import { channelId } from '../shared/schema/params';

/** chat/templates/list: the channel's APPROVED templates, with their variable counts. */
export const schema = v.object({
  channelId: channelId(),
});

export const handler = apiEndpoint({
  path: 'chat/templates/list',
  schema,
  channelScoped: true,
  handle: async (_input, { channel }) => {
    const templates = await listApprovedTemplates(channel);
    return { data: templates, message: `Found ${templates.length} approved template(s)` };
  },
});
