import * as v from 'valibot';
import { manageContact } from '../shared/domain/contacts';
import { apiEndpoint } from '../shared/http/api-handler';
import { channelId, contactStatus, customFieldsData, email, httpUrl, LIMITS, nameList, phone, text } from '../shared/schema/params';

export const schema = v.object({
  phoneNumber: phone(),
  channelId: channelId(),
  name: v.optional(text(LIMITS.name)),
  email: v.optional(email()),
  profilePictureUrl: v.optional(httpUrl()),
  customFieldsData: v.optional(customFieldsData()),
  labelNames: v.optional(nameList(LIMITS.listEntries, LIMITS.name)),
  /** Opt-out status; each change is recorded (when, how: `api`, which API user). */
  status: v.optional(contactStatus()),
});

export const handler = apiEndpoint({
  path: 'contacts/manage',
  schema,
  channelScoped: true,
  handle: async (input, { channel, principal }) => {
    const contact = await manageContact(channel, input, { userId: principal.userId });
    return { data: contact, message: contact.created ? 'Contact created' : 'Contact updated' };
  },
});
