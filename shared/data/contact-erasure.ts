import * as v from 'valibot';
import type { ChannelRef, Key } from '../identity';
import { queryAll } from './batch';
import { deleteItem, putItem, update, when } from './client';
import { countPhonesChange } from './contact-head';
import { removeIndexEntry } from './contact-index';
import { ContactItem, contactProjection, type ContactRecord } from './contacts';
import { entity, ItemKey, tagged } from './entity';
import { keys } from './keys';

/**
 * The erasure of contacts (contacts/delete). The steps are single-item writes in an
 * order that leaves a visible, finishable state after a crash: the contact item is
 * marked `erasing` (and loses its personal fields) first and deleted last, so running
 * the delete again, or `admin contacts recount`, finishes it.
 */

/** The audit record of one erasure (`ERASED#…`): when and by whom; nothing of the contact (not even its id). */
const ErasureAuditItem = entity('contactErasure', { at: v.number(), userId: v.string(), keyId: v.string() });

/** Records that an API user asked for an erasure (idempotent per erasure id). */
export async function recordErasure(channel: ChannelRef, erasureId: string, record: { at: number; userId: string; keyId: string }): Promise<void> {
  await putItem(tagged(ErasureAuditItem, keys.erasureAudit(channel, record.at, erasureId), record));
}

/**
 * Step 1 of an erasure: marks the contact `erasing` and removes its personal fields
 * (name, email, picture, labels, custom field values) at once. Keeps id, phone and
 * wa_id, which the remaining steps need. Returns the contact after the change, or
 * undefined when there is no contact with that phone and id.
 */
export async function beginErasure(channel: ChannelRef, phone: string, contactId: string, at: number): Promise<ContactRecord | undefined> {
  return update(keys.contact(channel, phone))
    .setIfNotExists('erasing', at)
    .remove('name', 'email', 'profilePictureUrl', 'labelIds', 'customFields')
    .when(when.and(when.itemExists(), when.eq('id', contactId)))
    .sendReturning(ContactItem);
}

/**
 * Takes the contact out of the search index and the count, exactly once: the index
 * entry's removal is idempotent, and only the caller that sets `uncounted` subtracts.
 * A crash between the two leaves the count one too high until `admin contacts recount`.
 */
export async function uncountContact(channel: ChannelRef, contact: Pick<ContactRecord, 'id' | 'phone'>): Promise<void> {
  const { phone } = contact;
  await removeIndexEntry(channel, contact);
  // A contact still pending was never counted.
  const claimed = await update(keys.contact(channel, phone))
    .set('uncounted', true)
    .when(when.and(when.exists('erasing'), when.notExists('uncounted'), when.notExists('indexPending')))
    .send();
  // The phones version and an emptied recent log with it: no kept log holds the number past this write.
  if (claimed) await countPhonesChange(channel, -1);
}

/** Deletes the wa_id map entry when it still points at this phone. */
export async function deleteWaIdMapping(channel: ChannelRef, waId: string, phone: string): Promise<void> {
  await deleteItem(keys.waId(channel, waId), when.eq('phone', phone));
}

/** The keys of every apiReference claim and status-change record of a phone (erasure deletes them). */
export async function recordsOfPhone(channel: ChannelRef, phone: string): Promise<Key[]> {
  const prefixes = [keys.apiReferencePrefix(channel, phone), keys.contactStatusChangePrefix(channel, phone)];
  const found = await Promise.all(prefixes.map(({ pk, skPrefix }) => queryAll(pk, skPrefix, ItemKey, { attributes: ['pk', 'sk'], consistent: true })));
  return found.flat();
}

/** The last step: deletes the contact item, only while it is marked `erasing`. */
export async function deleteErasedContact(channel: ChannelRef, phone: string, contactId: string): Promise<void> {
  await deleteItem(keys.contact(channel, phone), when.and(when.exists('erasing'), when.eq('id', contactId)));
}

/** Every contact's id and phone, and whether a crash left it half-erased (repair: `admin contacts recount`). Reads all contacts. */
export async function contactsForRepair(channel: ChannelRef): Promise<Array<Pick<ContactRecord, 'id' | 'phone'> & { erasing?: number }>> {
  const { pk, skPrefix } = keys.contactPrefix(channel);
  const read = ['id', 'phone', 'erasing'] as const;
  const items = await queryAll(pk, skPrefix, contactProjection(read), { attributes: ['sk', ...read], consistent: true });
  // The head shares the prefix and has neither.
  return items.flatMap(({ id, phone, erasing }) => (id !== undefined && phone !== undefined ? [{ id, phone, erasing }] : []));
}

/**
 * The events of a phone in the channel's events log, deliveries and delivery lanes
 * (their bodies name the contact): found by `contactKey` (lanes by their key), reading the
 * channel's whole log (events are kept 8 days, deliveries 14): erasure only, never a request path.
 */
export async function eventRecordsOfPhone(channel: ChannelRef, phone: string): Promise<Key[]> {
  const byContact = when.eq('contactKey', phone);
  const [events, deliveries, lanes] = await Promise.all([
    queryAll(keys.eventPrefix(channel).pk, keys.eventPrefix(channel).skPrefix, ItemKey, { attributes: ['pk', 'sk'], filter: byContact, consistent: true }),
    queryAll(keys.eventDeliveriesPrefix(channel).pk, keys.eventDeliveriesPrefix(channel).skPrefix, ItemKey, {
      attributes: ['pk', 'sk'],
      filter: byContact,
      consistent: true,
    }),
    queryAll(keys.deliveryLanesPrefix(channel).pk, keys.deliveryLanesPrefix(channel).skPrefix, ItemKey, { attributes: ['pk', 'sk'], consistent: true }),
  ]);
  return [...events, ...deliveries, ...lanes.filter((lane) => lane.sk.endsWith(`#${phone}`))];
}
