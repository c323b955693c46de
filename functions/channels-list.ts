import * as v from 'valibot';
import { listChannels } from '../shared/domain/channels';
import { apiEndpoint } from '../shared/http/api-handler';

/** channels/list takes no parameters (a given channelId is ignored). */
export const schema = v.object({});

export const handler = apiEndpoint({
  path: 'channels/list',
  schema,
  channelScoped: false,
  handle: async (_input, { principal }) => {
    const channels = await listChannels(principal);
    return { data: channels, message: `Found ${channels.length} channel(s)` };
  },
});
