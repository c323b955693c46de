import * as v from 'valibot';
import { channelLabels, Label } from '../shared/domain/definitions';
import { apiEndpoint } from '../shared/http/api-handler';
import { endpointResponse } from '../shared/schema/responses';
import { channelId } from '../shared/schema/params';

export const schema = v.object({ channelId: channelId() });

export const response = endpointResponse({
  data: v.array(Label),
  message: 'Found 2 label(s)',
  description: 'The labels of the channel, by display order.',
});

export const handler = apiEndpoint({
  path: 'labels/list',
  schema,
  response,
  channelScoped: true,
  handle: async (_input, { channel }) => {
    const labels = await channelLabels(channel);
    return { data: labels, message: `Found ${labels.length} label(s)` };
  },
});
