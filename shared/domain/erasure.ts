import { clock } from '../clock';
import {
  beginErasure,
  contactsForRepair,
  deleteErasedContact,
  deleteWaIdMapping,
  phoneOfContactId,
  putContactIdPointer,
  recordsOfPhone,
  uncountContact,
} from '../data/contact-erasure';
import { markOptedOut } from '../data/contact-status';
import { getContact } from '../data/contacts';
import { keys } from '../data/keys';
import { allHistoryEntries, deleteItem, eraseMessageContent, rebuildHistoryEntries } from '../data/message-history';
import { InvalidInputError, NotFoundError } from '../errors';
import type { ContactRef } from './contact-ref';

/** Writes an erasure keeps in flight at once (message skeletons, claims, records). */
const ERASE_CONCURRENCY = 16;

/**
 * contacts/delete (INTERFACE §8): erases a contact and what the channel holds about it,
 * in an order that a crash cannot turn into a half-readable state:
 * 1. the contact item is marked `erasing` and loses its personal fields (name, email,
 *    picture, labels, custom field values): from here every endpoint treats it as gone;
 * 2. its search-index entry and its place in the count go (contacts/list `total` drops
 *    by one at once, exactly once);
 * 3. each message keeps a skeleton (type, direction, times, send state, delivery
 *    status) without content, phone or apiReference; its history entry is deleted;
 * 4. the conversation, the wa_id map entry, the apiReference claims, the status-change
 *    records, the opted-out entry and the id pointer are deleted;
 * 5. the contact item is deleted.
 * Every step is idempotent. After a crash, the contact stays hidden (step 1) and the
 * same delete (by phone or id) or `admin contacts recount` runs the steps again to the end.
 * A later inbound message from the number creates a new contact (new id, empty history).
 */
export async function eraseContact(workspaceId: string, channelId: string, ref: ContactRef): Promise<{ id: string; deleted: true }> {
  const target = await findForErasure(workspaceId, channelId, ref);
  await finishErasure(workspaceId, channelId, target.phone, target.id);
  return { id: target.id, deleted: true };
}

/** The contact to erase, also one a crash left half-erased (so the delete can be run again). */
async function findForErasure(workspaceId: string, channelId: string, ref: ContactRef): Promise<{ id: string; phone: string }> {
  if (ref.phoneNumber === undefined && ref.contactId === undefined) {
    throw new InvalidInputError('Missing required parameter: phoneNumber or contactId (one of them names the contact).', 'phoneNumber', 'missing_parameter');
  }
  const phone = ref.phoneNumber ?? (await phoneOfContactId(workspaceId, channelId, ref.contactId!));
  const contact = phone === undefined ? undefined : await getContact(workspaceId, channelId, phone);
  if (!contact || (ref.contactId !== undefined && contact.id !== ref.contactId)) {
    const parameter = ref.contactId !== undefined ? 'contactId' : 'phoneNumber';
    throw new NotFoundError(`No contact with that ${parameter === 'contactId' ? 'id' : 'phone number'} in this channel.`, { parameter });
  }
  return { id: contact.id, phone: contact.phone };
}

/** Runs (or runs again) every step of the erasure of the contact `phone` with id `contactId`. */
export async function finishErasure(workspaceId: string, channelId: string, phone: string, contactId: string): Promise<void> {
  const now = clock.now();
  const contact = await beginErasure(workspaceId, channelId, phone, contactId, now);
  if (!contact) return;
  await uncountContact(workspaceId, channelId, phone);
  const entries = await allHistoryEntries(workspaceId, channelId, phone);
  await inBatches(entries, async (entry) => {
    await eraseMessageContent(workspaceId, channelId, entry.messageId, entry.chatmid, now);
    await deleteItem({ pk: entry.pk, sk: entry.sk });
  });
  await inBatches(await recordsOfPhone(workspaceId, channelId, phone), deleteItem);
  await markOptedOut(workspaceId, channelId, phone, false, now);
  await deleteItem(keys.conversation(workspaceId, channelId, phone));
  if (contact.waId) await deleteWaIdMapping(workspaceId, channelId, contact.waId, phone);
  await deleteItem(keys.contactById(workspaceId, channelId, contactId));
  await deleteErasedContact(workspaceId, channelId, phone, contactId);
}

/**
 * Repair (`admin contacts recount`, before the index rebuild): finishes every erasure a
 * crash interrupted, writes the id pointer of every other contact (contacts created
 * before ids were looked up by pointer have none) and the history entry of every
 * message (messages stored before the history existed; an entry a crash left behind its
 * message). Reads all the channel's contacts and messages.
 */
export async function repairContacts(workspaceId: string, channelId: string): Promise<{ erasuresFinished: number; idPointers: number; historyEntries: number }> {
  const contacts = await contactsForRepair(workspaceId, channelId);
  let erasuresFinished = 0;
  const live = contacts.filter((contact) => contact.erasing === undefined);
  for (const contact of contacts) {
    if (contact.erasing === undefined) continue;
    await finishErasure(workspaceId, channelId, contact.phone, contact.id);
    erasuresFinished += 1;
  }
  await inBatches(live, (contact) => putContactIdPointer(workspaceId, channelId, contact));
  const historyEntries = await rebuildHistoryEntries(workspaceId, channelId);
  return { erasuresFinished, idPointers: live.length, historyEntries };
}

async function inBatches<T>(items: T[], work: (item: T) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += ERASE_CONCURRENCY) await Promise.all(items.slice(i, i + ERASE_CONCURRENCY).map(work));
}
