import * as v from 'valibot';
import { CUSTOM_FIELD_TYPES, CustomFieldResult, manageCustomField } from '../shared/domain/definitions';
import { apiEndpoint } from '../shared/http/api-handler';
import { described } from '../shared/schema/docs';
import { endpointResponse } from '../shared/schema/responses';
import { boolean, channelId, LIMITS, nameList, text, UNSTORABLE_FIELD_NAMES } from '../shared/schema/params';

export const schema = v.object({
  name: described(
    v.pipe(
      text(LIMITS.name),
      v.check((name) => !UNSTORABLE_FIELD_NAMES.has(name), 'cannot be __proto__ (a name custom field values cannot be stored under)'),
    ),
    'Field name: the match key (case-insensitive) and the key in customFieldsData.',
    'plan',
  ),
  channelId: channelId(),
  type: v.optional(
    described(
      v.pipe(v.string('must be a string'), v.trim(), v.toLowerCase(), v.picklist(CUSTOM_FIELD_TYPES, `must be one of ${CUSTOM_FIELD_TYPES.join(', ')}`)),
      'Value type of the field; `dropdown` needs options. Default on create: text.',
      'dropdown',
    ),
  ),
  isRequired: v.optional(described(boolean(), 'Whether contacts/manage must set this field when it creates a contact (`true`/`false`).', false)),
  options: v.optional(
    described(
      nameList(LIMITS.optionEntries, LIMITS.optionLength),
      'Allowed values of a dropdown field, as a JSON array or (GET) comma-separated; a GET value that contains a comma needs the JSON array as text, e.g. `["S, M","L"]`.',
      ['free', 'pro'],
    ),
  ),
});

export const response = endpointResponse({
  data: CustomFieldResult,
  message: 'Custom field created',
  description: 'The custom field definition as stored; `created` tells a create from an update.',
});

export const handler = apiEndpoint({
  path: 'custom-fields/manage',
  schema,
  response,
  channelScoped: true,
  handle: async (input, { channel }) => {
    const field = await manageCustomField(channel, input);
    return { data: field, message: field.created ? 'Custom field created' : 'Custom field updated' };
  },
});
