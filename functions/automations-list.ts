import * as v from 'valibot';
import { listAutomations } from '../shared/domain/automations';
import { apiEndpoint } from '../shared/http/api-handler';
import { channelId } from '../shared/schema/params';

export const schema = v.object({ channelId: channelId() });

export const handler = apiEndpoint({
  path: 'automations/list',
  schema,
  channelScoped: true,
  handle: async (_input, { channel }) => {
    const automations = await listAutomations(channel);
    return { data: automations, total: automations.length, message: `Found ${automations.length} automation(s)` };
  },
});
