import * as v from 'valibot';
import { manageContact } from '../shared/domain/contacts';
import { ContactResult } from '../shared/domain/contact-view';
import { apiEndpoint } from '../shared/http/api-handler';
import { described } from '../shared/schema/docs';
import { endpointResponse } from '../shared/schema/responses';
import { channelId, contactStatus, customFieldsData, email, httpUrl, LIMITS, nameList, phone, text } from '../shared/schema/params';

export const schema = v.object({
  phoneNumber: described(
    phone(),
    'Phone number with country code, in any common notation (`+1 (415) 555-0123`, `14155550123`, `0044…`); stored as digits with country code. Matches the contact.',
    '+14155550123',
  ),
  channelId: channelId(),
  name: v.optional(described(text(LIMITS.name), 'Display name of the contact.', 'Bo Example')),
  email: v.optional(described(email(), 'Email address (stored lower-case).', 'bo@example.com')),
  profilePictureUrl: v.optional(described(httpUrl(), 'http or https URL of a profile picture.', 'https://example.com/bo.jpg')),
  customFieldsData: v.optional(
    described(
      customFieldsData(),
      'Custom field values by field name: a JSON object, or (GET) the JSON object as text, or `key:value` pairs separated by commas (a value that contains a comma needs the JSON form). Names must be defined with custom-fields/manage; values must fit the field type; a null or empty value clears the field. Keys not named keep their values.',
      { city: 'Oakland', tier: 'gold' },
    ),
  ),
  labelNames: v.optional(
    described(
      nameList(LIMITS.listEntries, LIMITS.name),
      'Names of labels of the channel (matched case-insensitively), as a JSON array or (GET) comma-separated; a GET value that contains a comma needs the JSON array as text, e.g. `["Smith, Jr."]`. Replaces the contact’s labels; unknown names are a 400.',
      ['VIP', 'new'],
    ),
  ),
  status: v.optional(
    described(
      contactStatus(),
      'Opt-out status: `opted_out` stops every send to the contact (403 `contact_opted_out`), `active` allows them again. Each change is recorded (when, by which API user).',
      'active',
    ),
  ),
});

export const response = endpointResponse({
  data: ContactResult,
  message: 'Contact created',
  description: 'The contact as stored; `created` tells a create from an update.',
});

export const handler = apiEndpoint({
  path: 'contacts/manage',
  schema,
  response,
  channelScoped: true,
  handle: async (input, { channel, principal }) => {
    const contact = await manageContact(channel, input, { userId: principal.userId });
    return { data: contact, message: contact.created ? 'Contact created' : 'Contact updated' };
  },
});
