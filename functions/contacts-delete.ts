import * as v from 'valibot';
import { ContactDeleted, eraseContact } from '../shared/domain/erasure';
import { apiEndpoint } from '../shared/http/api-handler';
import { described } from '../shared/schema/docs';
import { endpointResponse } from '../shared/schema/responses';
import { channelId, contactId, phone } from '../shared/schema/params';

export const schema = v.pipe(
  v.object({
    channelId: channelId(),
    phoneNumber: v.optional(described(phone(), 'Phone number of the contact to erase, with country code (or pass contactId).', '+14155550123')),
    contactId: contactId(),
  }),
  // One of phoneNumber and contactId names the contact (the domain refuses neither).
  v.metadata({ anyOf: [{ required: ['phoneNumber'] }, { required: ['contactId'] }] }),
  v.examples([{ channelId: 'ch_demoacmesupport', phoneNumber: '+14155550123' }]),
);

export const response = endpointResponse({
  data: ContactDeleted,
  message: 'Contact erased: its data, conversation and message contents are gone',
  errors: [404],
  description:
    'The contact, its labels, custom field values, search entry and conversation are removed and its messages’ contents blanked (status skeletons stay).',
});

export const handler = apiEndpoint({
  path: 'contacts/delete',
  schema,
  response,
  channelScoped: true,
  handle: async (input, { channel, principal }) => ({
    data: await eraseContact(channel, input, { userId: principal.userId, keyId: principal.keyId }),
    message: 'Contact erased: its data, conversation and message contents are gone',
  }),
});
