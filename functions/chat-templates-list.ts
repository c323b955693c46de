import * as v from 'valibot';
import { listApprovedTemplates, Template } from '../shared/domain/templates';
import { apiEndpoint } from '../shared/http/api-handler';
import { endpointResponse } from '../shared/schema/responses';
import { channelId } from '../shared/schema/params';

/** chat/templates/list: the channel's APPROVED templates, with their variable counts. */
export const schema = v.object({
  channelId: channelId(),
});

export const response = endpointResponse({
  data: v.array(Template),
  message: 'Found 3 approved template(s)',
  description: 'The APPROVED templates of the channel, with the variables a send must fill.',
});

export const handler = apiEndpoint({
  path: 'chat/templates/list',
  schema,
  response,
  channelScoped: true,
  handle: async (_input, { channel }) => {
    const templates = await listApprovedTemplates(channel);
    return { data: templates, message: `Found ${templates.length} approved template(s)` };
  },
});
