import * as v from 'valibot';
import { channelCustomFields } from '../shared/domain/definitions';
import { apiEndpoint } from '../shared/http/api-handler';
import { channelId } from '../shared/schema/params';

export const schema = v.object({ channelId: channelId() });

export const handler = apiEndpoint({
  path: 'custom-fields/list',
  schema,
  channelScoped: true,
  handle: async (_input, { channel }) => {
    const fields = await channelCustomFields(channel);
    return { data: fields, message: `Found ${fields.length} custom field(s)` };
  },
});
