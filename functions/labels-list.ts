import * as v from 'valibot';
import { channelLabels } from '../shared/domain/definitions';
import { apiEndpoint } from '../shared/http/api-handler';
import { channelId } from '../shared/schema/params';

export const schema = v.object({ channelId: channelId() });

export const handler = apiEndpoint({
  path: 'labels/list',
  schema,
  channelScoped: true,
  handle: async (_input, { channel }) => {
    const labels = await channelLabels(channel);
    return { data: labels, message: `Found ${labels.length} label(s)` };
  },
});
