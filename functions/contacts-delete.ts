import * as v from 'valibot';
import { eraseContact } from '../shared/domain/erasure';
import { apiEndpoint } from '../shared/http/api-handler';
import { channelId, identifier, phone } from '../shared/schema/params';

export const schema = v.object({
  channelId: channelId(),
  /** One of phoneNumber and contactId names the contact. */
  phoneNumber: v.optional(phone()),
  contactId: v.optional(identifier()),
});

export const handler = apiEndpoint({
  path: 'contacts/delete',
  schema,
  channelScoped: true,
  handle: async (input, { channel }) => ({
    data: await eraseContact(channel, input),
    message: 'Contact erased: its data, conversation and message contents are gone',
  }),
});
