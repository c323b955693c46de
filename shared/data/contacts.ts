import { clock } from '../clock';
import { newId } from '../ids';
import { batchGetAll, queryFirstPage } from './batch';
import { getItem, putIfAbsent, update, when } from './client';
import { putContactIdPointer } from './contact-erasure';
import { countCreatedContact } from './contact-index-stream';
import { changeIndexEntries } from './contact-index-entries';
import { contactIndexItemOf, contactIndexName as indexName, keys } from './keys';
import type { Key, ChannelRef } from '../identity';

/**
 * Contacts of a channel. One item per real phone number (the normalized number is
 * the sort key, so two creates of one number cannot both succeed). Beside the items
 * the channel keeps:
 * - a head item (sk `CONTACT#`, sorting first among contacts) with the contact count
 *   and the definitions version, so page 1 and `total` come from one query;
 * - a compact index: up to 4096 bucket items mapping phone → lowercased name prefix
 *   (~30 bytes a contact), read for searches and deep pages instead of whole contacts.
 */

export type CustomFieldValue = string | number;

export interface ContactRecord {
  id: string;
  phone: string;
  name?: string;
  email?: string;
  profilePictureUrl?: string;
  labelIds: string[];
  customFields: Record<string, CustomFieldValue>;
  /** `opted_out` after an opt-out keyword or contacts/manage `status` (shared/data/contact-status.ts). */
  status: 'active' | 'opted_out';
  /** When and how the status last changed (ms since the epoch; `keyword` or `api`). */
  statusChangedAt?: number;
  statusSource?: 'keyword' | 'api';
  waId?: string;
  createdAt: string;
  updatedAt: string;
  /** Set until the contact is in the index and the count; finished on its next touch. */
  indexPending?: boolean;
  /** The import ledger of the contacts/import call that created it (shared/data/contact-import.ts), which indexes and counts it. */
  importedBy?: string;
  /** Set while contacts/delete erases the contact (ms since the epoch); the contact is then hidden. */
  erasing?: number;
}

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
 * Applies `changes` to the contact of `phone`, creating it when there is none and
 * `mayCreate` allows (asked only then, so a caller can defer reads that only a create
 * needs; it may still amend `changes`, which the create and any later update use).
 * Concurrent calls for one number converge on one item: an update first, a
 * conditional create when nothing is there, an update again if a concurrent create
 * won. Each field ends as one of the values written (single-item atomic updates;
 * custom fields merge key by key).
 */
export async function upsertContact(
  channel: ChannelRef,
  phone: string,
  changes: ContactChanges,
  mayCreate: () => boolean | Promise<boolean>,
): Promise<{ contact: ContactRecord; created: boolean } | undefined> {
  for (;;) {
    const updated = await updateContact(channel, phone, changes);
    if (updated) {
      if (updated.indexPending) await finishIndexing(channel, updated);
      else if (changes.name !== undefined) await writeIndexEntry(channel, updated);
      return { contact: updated, created: false };
    }
    if (!(await mayCreate())) return undefined;
    const created = await createContact(channel, phone, changes);
    if (created) {
      await finishIndexing(channel, created);
      return { contact: created, created: true };
    }
  }
}

async function createContact(channel: ChannelRef, phone: string, changes: ContactChanges): Promise<ContactRecord | undefined> {
  const contact: ContactRecord = { ...newContactRecord(phone, changes), indexPending: true };
  const created = await putIfAbsent({ ...keys.contact(channel, phone), entity: 'contact', ...contact });
  return created === 'created' ? contact : undefined;
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

async function updateContact(channel: ChannelRef, phone: string, changes: ContactChanges): Promise<ContactRecord | undefined> {
  const contactUpdate = update(keys.contact(channel, phone)).set('updatedAt', clock.nowIso());
  for (const field of ['name', 'email', 'profilePictureUrl', 'labelIds', 'waId'] as const) contactUpdate.setOrRemove(field, changes[field]);
  // Custom fields merge key by key: a null value removes its key.
  for (const [key, value] of Object.entries(changes.customFields ?? {})) contactUpdate.setOrRemove(['customFields', key], value);
  return contactUpdate.when(when.itemExists()).sendReturning<ContactRecord>();
}

/** Writes the contact's compact index entry (idempotent): `<phone digits>` → `indexName(name)` in its index item (contact-index-entries.ts). */
export async function writeIndexEntry(channel: ChannelRef, contact: Pick<ContactRecord, 'id' | 'phone' | 'name'>): Promise<void> {
  await changeIndexEntries(contactIndexItemOf(channel, contact), { set: [[contact.phone, indexName(contact.name)]] });
}

/**
 * Puts a new contact into the index and the count, exactly once: the index entry is
 * idempotent, and only the caller that clears the pending marker adds to the count.
 * A crash before the marker is cleared is finished by the contact's next touch; a
 * crash between clearing and counting is fixed by `recountContacts` (admin repair,
 * contact-index-rebuild.ts).
 */
export async function finishIndexing(channel: ChannelRef, contact: ContactRecord): Promise<void> {
  await writeIndexEntry(channel, contact);
  await putContactIdPointer(channel, contact);
  const claimed = await update(keys.contact(channel, contact.phone)).remove('indexPending').when(when.eq('indexPending', true)).send();
  if (!claimed) return;
  // With the count: the phones version and its recent log (deep pages' kept phone order, shared/domain/contact-index-select.ts).
  await countCreatedContact(channel, contact.phone);
}

export interface ContactHead {
  contactCount: number;
  defsVersion: number;
}

/** Page 1 in one query: the head item (count, definitions version) then the first `limit` contacts by phone. */
export async function firstContactPage(channel: ChannelRef, limit: number): Promise<{ head: ContactHead; contacts: ContactRecord[] }> {
  const head = keys.contactHead(channel);
  const items = await queryFirstPage<Key & ContactRecord & Partial<ContactHead>>(head.pk, head.sk, { limit: limit + 1 });
  const headItem = items[0]?.sk === head.sk ? items.shift() : undefined;
  return {
    head: { contactCount: Number(headItem?.contactCount ?? 0), defsVersion: Number(headItem?.defsVersion ?? 0) },
    contacts: items.slice(0, limit),
  };
}

/** Reads the contacts with these phone numbers, in the given order (one BatchGet per 100). */
export async function getContactsByPhone(channel: ChannelRef, phones: string[]): Promise<ContactRecord[]> {
  const found = await batchGetAll<ContactRecord>(phones.map((phone) => keys.contact(channel, phone)));
  const byPhone = new Map(found.map((contact) => [contact.phone, contact]));
  return phones.map((phone) => byPhone.get(phone)).filter((contact): contact is ContactRecord => contact !== undefined);
}

/** Reads one contact by phone (consistent), or undefined. */
export async function getContact(channel: ChannelRef, phone: string): Promise<ContactRecord | undefined> {
  return getItem<ContactRecord>(keys.contact(channel, phone), { consistent: true });
}
