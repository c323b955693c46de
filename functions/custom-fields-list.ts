import * as v from 'valibot';
import { channelCustomFields, CustomField } from '../shared/domain/definitions';
import { apiEndpoint } from '../shared/http/api-handler';
import { endpointResponse } from '../shared/schema/responses';
import { channelId } from '../shared/schema/params';

export const schema = v.object({ channelId: channelId() });

export const response = endpointResponse({
  data: v.array(CustomField),
  message: 'Found 2 custom field(s)',
  description: 'The custom field definitions of the channel.',
});

export const handler = apiEndpoint({
  path: 'custom-fields/list',
  schema,
  response,
  channelScoped: true,
  handle: async (_input, { channel }) => {
    const fields = await channelCustomFields(channel);
    return { data: fields, message: `Found ${fields.length} custom field(s)` };
  },
});
