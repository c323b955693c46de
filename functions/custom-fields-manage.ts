import * as v from 'valibot';
import { CUSTOM_FIELD_TYPES, manageCustomField } from '../shared/domain/definitions';
import { apiEndpoint } from '../shared/http/api-handler';
import { boolean, channelId, LIMITS, nameList, text, UNSTORABLE_FIELD_NAMES } from '../shared/schema/params';

export const schema = v.object({
  name: v.pipe(
    text(LIMITS.name),
    v.check((name) => !UNSTORABLE_FIELD_NAMES.has(name), 'cannot be __proto__ (a name custom field values cannot be stored under)'),
  ),
  channelId: channelId(),
  type: v.optional(
    v.pipe(v.string('must be a string'), v.trim(), v.toLowerCase(), v.picklist(CUSTOM_FIELD_TYPES, `must be one of ${CUSTOM_FIELD_TYPES.join(', ')}`)),
  ),
  isRequired: v.optional(boolean()),
  options: v.optional(nameList(LIMITS.optionEntries, LIMITS.optionLength)),
});

export const handler = apiEndpoint({
  path: 'custom-fields/manage',
  schema,
  channelScoped: true,
  handle: async (input, { channel }) => {
    const field = await manageCustomField(channel, input);
    return { data: field, message: field.created ? 'Custom field created' : 'Custom field updated' };
  },
});
