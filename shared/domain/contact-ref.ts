import { phoneOfContactId } from '../data/contact-ids';
import { getContact, type ContactRecord } from '../data/contacts';
import type { ChannelRef } from '../identity';
import { InvalidInputError, NotFoundError } from '../errors';

/** How a request names a contact: its phone number or its id (one of them). */
export interface ContactRef {
  phoneNumber?: string;
  contactId?: string;
}

/**
 * The contact a request names, read consistently, also one a crash left half-erased
 * (`erasing`; contacts/delete continues it, the reads hide it): by phone one read, by id
 * the id pointer then the contact. Unknown or of another channel → the same 404
 * (reference: DECISIONS "contactId unknown"). Both given: they must name the same contact.
 */
export async function findContact(channel: ChannelRef, ref: ContactRef): Promise<ContactRecord> {
  if (ref.phoneNumber === undefined && ref.contactId === undefined) {
    throw new InvalidInputError('Missing required parameter: phoneNumber or contactId (one of them names the contact).', 'phoneNumber', 'missing_parameter');
  }
  const phone = ref.phoneNumber ?? (await phoneOfContactId(channel, ref.contactId!));
  const contact = phone === undefined ? undefined : await getContact(channel, phone);
  if (!contact || (ref.contactId !== undefined && contact.id !== ref.contactId)) throw notFound(ref);
  return contact;
}

/** As {@link findContact}, and a contact being erased is gone too. */
export async function resolveContact(channel: ChannelRef, ref: ContactRef): Promise<ContactRecord> {
  const contact = await findContact(channel, ref);
  if (contact.erasing !== undefined) throw notFound(ref);
  return contact;
}

function notFound(ref: ContactRef): NotFoundError {
  const parameter = ref.contactId !== undefined ? 'contactId' : 'phoneNumber';
  return new NotFoundError(`No contact with that ${parameter === 'contactId' ? 'id' : 'phone number'} in this channel.`, { parameter });
}
