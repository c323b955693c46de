import * as v from 'valibot';
import { manageContact } from '../shared/domain/contacts';
import { apiEndpoint } from '../shared/http/api-handler';
import { channelId, customFieldsData, email, httpUrl, LIMITS, nameList, phone, text } from '../shared/schema/params';

export const schema = v.object({
  phoneNumber: phone(),
  channelId: channelId(),
  name: v.optional(text(LIMITS.name)),
  email: v.optional(email()),
  profilePictureUrl: v.optional(httpUrl()),
  customFieldsData: v.optional(customFieldsData()),
  labelNames: v.optional(nameList(LIMITS.listEntries, LIMITS.name)),
});

export const handler = apiEndpoint({
  path: 'contacts/manage',
  schema,
  channelScoped: true,
  handle: async (input, { channel }) => {
    const contact = await manageContact(channel, input);
    return { data: contact, message: contact.created ? 'Contact created' : 'Contact updated' };
  },
});
