import * as v from 'valibot';
import { Automation, listAutomations } from '../shared/domain/automations';
import { apiEndpoint } from '../shared/http/api-handler';
import { endpointResponse } from '../shared/schema/responses';
import { channelId } from '../shared/schema/params';

export const schema = v.object({ channelId: channelId() });

export const response = endpointResponse({
  data: v.array(Automation),
  message: 'Found 1 automation(s)',
  envelope: 'total',
  description: 'The automations of the channel; `total` counts them.',
});

export const handler = apiEndpoint({
  path: 'automations/list',
  schema,
  response,
  channelScoped: true,
  handle: async (_input, { channel }) => {
    const automations = await listAutomations(channel);
    return { data: automations, total: automations.length, message: `Found ${automations.length} automation(s)` };
  },
});
