import * as v from 'valibot';
import { clock } from '../clock';
import type { ChannelRef } from '../identity';
import { newId } from '../ids';
import { batchGetAll, queryFirst } from './batch';
import { getItem, putIfAbsent, update, when } from './client';
import { ContactHeadItem, countCreatedContact, type ContactHead } from './contact-head';
import { putContactIdPointer } from './contact-ids';
import { writeIndexEntry } from './contact-index';
import { entity, tagged, type Attributes } from './entity';
import { keys } from './keys';

/**
 * Contacts of a channel, as the aggregate they are: one item per real phone number (the
 * normalized number is the sort key, so two creates of one number cannot both succeed),
 * and what every write of one finishes itself before it returns: its entry in the compact
 * index (contact-index.ts), its id pointer (contact-ids.ts) and its place in the count
 * on the channel's head (contact-head.ts). Callers pass values and get outcomes; the
 * rules of a create (contacts/manage's required fields) stay with the caller.
 */

export type CustomFieldValue = string | number;

/**
 * Custom field values by field name, as stored: checked in place, never copied, so a field
 * named `constructor` or `toString` is read as written (`v.record` drops such keys).
 */
const CustomFieldValues = v.custom<Record<string, CustomFieldValue>>(
  (value) =>
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    Object.values(value).every((field) => typeof field === 'string' || typeof field === 'number'),
  'custom field values by name, each a string or a number',
);

/** A contact: one item per real phone number of the channel (the normalized number is the sort key). */
export const ContactItem = entity('contact', {
  id: v.string(),
  phone: v.string(),
  name: v.optional(v.string()),
  email: v.optional(v.string()),
  profilePictureUrl: v.optional(v.string()),
  /** Absent once an erasure removed them (read as none). */
  labelIds: v.optional(v.array(v.string()), () => []),
  customFields: v.optional(CustomFieldValues, () => ({})),
  /** `opted_out` after an opt-out keyword or contacts/manage `status` (shared/data/contact-status.ts); absent on contacts older than opt-out. */
  status: v.optional(v.picklist(['active', 'opted_out']), 'active'),
  /** When and how the status last changed (ms since the epoch; `keyword` or `api`). */
  statusChangedAt: v.optional(v.number()),
  statusSource: v.optional(v.picklist(['keyword', 'api', 'import'])),
  waId: v.optional(v.string()),
  createdAt: v.string(),
  updatedAt: v.string(),
  /** Set until the contact is in the index and the count; finished on its next touch. */
  indexPending: v.optional(v.boolean()),
  /** The import ledger of the contacts/import call that created it (shared/data/contact-import.ts), which indexes and counts it. */
  importedBy: v.optional(v.string()),
  /** Set while contacts/delete erases the contact (ms since the epoch); the contact is then hidden. */
  erasing: v.optional(v.number()),
  /** Set once an erasure took the contact out of the count. */
  uncounted: v.optional(v.boolean()),
});
export type ContactRecord = Attributes<typeof ContactItem>;

/**
 * What a projection of the items under the contacts' prefix reads (the recount, the
 * repair): the sort key and `attributes` of a contact, each optional, since the head,
 * which sorts first among them, has none of them.
 */
export const contactProjection = <const A extends readonly [keyof typeof ContactItem.entries, ...(keyof typeof ContactItem.entries)[]]>(attributes: A) =>
  v.looseObject({ sk: v.string(), ...v.partial(v.pick(ContactItem, attributes)).entries });

export interface ContactChanges {
  name?: string;
  email?: string | null;
  profilePictureUrl?: string | null;
  labelIds?: string[];
  /** Keys to set; a null value removes the key. Keys not named stay as they are. */
  customFields?: Record<string, CustomFieldValue | null>;
  waId?: string;
}

/**
 * Updates the contact of `phone` when there is one (condition: it exists), and finishes
 * what the change needs: its index entry when the name changes, or, for a contact a
 * crash left pending, its index entry, id pointer and count ({@link finishIndexing}).
 * Undefined when the number has no contact. Each field ends as one of the values
 * written (single-item atomic updates; custom fields merge key by key).
 */
export async function updateContact(channel: ChannelRef, phone: string, changes: ContactChanges): Promise<ContactRecord | undefined> {
  const contactUpdate = update(keys.contact(channel, phone)).set('updatedAt', clock.nowIso());
  for (const field of ['name', 'email', 'profilePictureUrl', 'labelIds', 'waId'] as const) contactUpdate.setOrRemove(field, changes[field]);
  // Custom fields merge key by key: a null value removes its key.
  for (const [key, value] of Object.entries(changes.customFields ?? {})) contactUpdate.setOrRemove(['customFields', key], value);
  const updated = await contactUpdate.when(when.itemExists()).sendReturning(ContactItem);
  if (updated?.indexPending) await finishIndexing(channel, updated);
  else if (updated && changes.name !== undefined) await writeIndexEntry(channel, updated);
  return updated;
}

/**
 * Creates the contact of `phone` with `changes` unless the number has one (a
 * conditional Put: two creates of one number cannot both succeed), then puts it into
 * the index and the count ({@link finishIndexing}). Undefined when a contact of the
 * number exists: the caller updates it instead.
 */
export async function createContact(channel: ChannelRef, phone: string, changes: ContactChanges): Promise<ContactRecord | undefined> {
  const contact: ContactRecord = { ...newContactRecord(phone, changes), indexPending: true };
  if ((await putIfAbsent(tagged(ContactItem, keys.contact(channel, phone), contact))) === 'existing') return undefined;
  await finishIndexing(channel, contact);
  return contact;
}

/**
 * The contact of `phone` after `changes`, created when there is none, for callers whose
 * create has no rules of its own (a send, a trigger, an inbound message); `createOnly`
 * adds fields only a create sets (an inbound message's profile name names a new contact,
 * never overwrites a name). Concurrent calls for one number converge on one item: an
 * update first, a conditional create when nothing is there, an update again if a
 * concurrent create won. (contacts/manage runs the same steps with its create rules in
 * between: shared/domain/contacts.ts `manageContact`.)
 */
export async function ensureContact(
  channel: ChannelRef,
  phone: string,
  changes: ContactChanges = {},
  createOnly: ContactChanges = {},
): Promise<{ contact: ContactRecord; created: boolean }> {
  for (;;) {
    const updated = await updateContact(channel, phone, changes);
    if (updated) return { contact: updated, created: false };
    const created = await createContact(channel, phone, { ...changes, ...createOnly });
    if (created) return { contact: created, created: true };
  }
}

/** A new contact of `phone` with `changes` applied (what a create stores; contacts/import writes the same shape). */
export function newContactRecord(phone: string, changes: ContactChanges): ContactRecord {
  const now = clock.nowIso();
  // A null value removes a key on update; a new contact simply does not have it.
  const customFields: Record<string, CustomFieldValue> = {};
  for (const [key, value] of Object.entries(changes.customFields ?? {})) if (value !== null) customFields[key] = value;
  const contact: ContactRecord = {
    id: newId('ct'),
    phone,
    name: changes.name,
    email: changes.email ?? undefined,
    profilePictureUrl: changes.profilePictureUrl ?? undefined,
    labelIds: changes.labelIds ?? [],
    customFields,
    status: 'active',
    waId: changes.waId,
    createdAt: now,
    updatedAt: now,
  };
  return contact;
}

/**
 * Puts a new contact into the index and the count, exactly once: the index entry and
 * the id pointer are idempotent, and only the caller that clears the pending marker adds
 * to the count. A crash before the marker is cleared is finished by the contact's next
 * touch; a crash between clearing and counting is fixed by `recountContacts` (admin
 * repair, contact-index-rebuild.ts).
 */
export async function finishIndexing(channel: ChannelRef, contact: ContactRecord): Promise<void> {
  await writeIndexEntry(channel, contact);
  await putContactIdPointer(channel, contact);
  const claimed = await update(keys.contact(channel, contact.phone)).remove('indexPending').when(when.eq('indexPending', true)).send();
  if (!claimed) return;
  // With the count: the phones version and its recent log (deep pages' kept phone order, shared/domain/contact-index-select.ts).
  await countCreatedContact(channel, contact.phone);
}

/** What page 1's query reads: the head (untagged, sorting first) or a contact. */
const ContactPageItem = v.union([ContactItem, ContactHeadItem]);
const isContact = (item: v.InferOutput<typeof ContactPageItem>): item is v.InferOutput<typeof ContactItem> => item.entity === ContactItem.tag;

/** Page 1 in one query: the head item (count, definitions version) then the first `limit` contacts by phone. */
export async function firstContactPage(channel: ChannelRef, limit: number): Promise<{ head: ContactHead; contacts: ContactRecord[] }> {
  const head = keys.contactHead(channel);
  const items = await queryFirst(head.pk, head.sk, ContactPageItem, { limit: limit + 1 });
  const headItem = items.find((item) => !isContact(item));
  return {
    head: { contactCount: Number(headItem?.contactCount ?? 0), defsVersion: Number(headItem?.defsVersion ?? 0) },
    contacts: items.filter(isContact).slice(0, limit),
  };
}

/** Reads the contacts with these phone numbers, in the given order (one BatchGet per 100). */
export async function getContactsByPhone(channel: ChannelRef, phones: string[]): Promise<ContactRecord[]> {
  const found = await batchGetAll(
    phones.map((phone) => keys.contact(channel, phone)),
    ContactItem,
  );
  const byPhone = new Map(found.map((contact) => [contact.phone, contact]));
  return phones.flatMap((phone) => byPhone.get(phone) ?? []);
}

/** Reads one contact by phone (consistent), or undefined. */
export async function getContact(channel: ChannelRef, phone: string): Promise<ContactRecord | undefined> {
  return getItem(keys.contact(channel, phone), ContactItem, { consistent: true });
}
