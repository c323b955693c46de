import * as v from 'valibot';
import { Channel, listChannels } from '../shared/domain/channels';
import { apiEndpoint } from '../shared/http/api-handler';
import { endpointResponse } from '../shared/schema/responses';

/** channels/list takes no parameters (a given channelId is ignored). */
export const schema = v.object({});

export const response = endpointResponse({
  data: v.array(Channel),
  message: 'Found 2 channel(s)',
  description: 'The channels this key may use, ordered by name; `message` states the count.',
});

export const handler = apiEndpoint({
  path: 'channels/list',
  schema,
  response,
  channelScoped: false,
  handle: async (_input, { principal }) => {
    const channels = await listChannels(principal);
    return { data: channels, message: `Found ${channels.length} channel(s)` };
  },
});
