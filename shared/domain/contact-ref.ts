import { getContact, type ContactRecord } from '../data/contacts';
import { phoneOfContactId } from '../data/contact-erasure';
import { InvalidInputError, NotFoundError } from '../errors';

/** How a request names a contact: its phone number or its id (one of them). */
export interface ContactRef {
  phoneNumber?: string;
  contactId?: string;
}

/**
 * The contact a request names, read consistently: by phone one read, by id the id
 * pointer then the contact. Unknown, of another channel, or being erased → the same
 * 404 (reference: DECISIONS "contactId unknown"). Both given: they must name the same contact.
 */
export async function resolveContact(workspaceId: string, channelId: string, ref: ContactRef): Promise<ContactRecord> {
  if (ref.phoneNumber === undefined && ref.contactId === undefined) {
    throw new InvalidInputError('Missing required parameter: phoneNumber or contactId (one of them names the contact).', 'phoneNumber', 'missing_parameter');
  }
  const phone = ref.phoneNumber ?? (await phoneOfContactId(workspaceId, channelId, ref.contactId!));
  const contact = phone === undefined ? undefined : await getContact(workspaceId, channelId, phone);
  if (!contact || contact.erasing !== undefined || (ref.contactId !== undefined && contact.id !== ref.contactId)) {
    const parameter = ref.contactId !== undefined ? 'contactId' : 'phoneNumber';
    throw new NotFoundError(`No contact with that ${parameter === 'contactId' ? 'id' : 'phone number'} in this channel.`, { parameter });
  }
  return contact;
}
