import * as v from 'valibot';
import { inboundMediaOf, type InboundContent } from '../chat/inbound-content';
import { clock } from '../clock';
import {
  beginErasure,
  contactsForRepair,
  deleteErasedContact,
  deleteWaIdMapping,
  eventRecordsOfPhone,
  recordErasure,
  recordsOfPhone,
  uncountContact,
} from '../data/contact-erasure';
import { forgetExecutionsOf } from '../data/automations';
import { deleteContactIdPointer, writeIdPointers } from '../data/contact-ids';
import { writeTombstone } from '../data/erasure-tombstones';
import { markOptedOut } from '../data/contact-status';
import { deleteConversation } from '../data/conversations';
import type { ChannelRef } from '../identity';
import { allHistoryEntries, deleteByKey, eraseMessageContent, rebuildHistoryEntries } from '../data/message-history';
import { newId } from '../ids';
import { mapLimit } from '../map-limit';
import { logger } from '../observability/logger';
import { eraseMedia } from './media';
import { findContact, type ContactRef } from './contact-ref';
import { described } from '../schema/docs';
import { component } from '../schema/responses';

/** What contacts/delete answers. */
export const ContactDeleted = component(
  'ContactDeleted',
  v.strictObject({
    id: described(v.string(), 'The erased contact’s id', 'ct_01jhx3k8m0'),
    deleted: described(v.literal(true), 'Always true', true),
  }),
);

/** Writes an erasure keeps in flight at once (message skeletons, claims, records). */
const ERASE_CONCURRENCY = 16;

/**
 * contacts/delete (INTERFACE §8): erases a contact and what the channel holds about it,
 * in an order that a crash cannot turn into a half-readable state:
 * 1. the contact item is marked `erasing` and loses its personal fields (name, email,
 *    picture, labels, custom field values): from here every endpoint treats it as gone;
 * 2. an erasure tombstone (a keyed hash of the phone and the time, shared/data/erasure-tombstones.ts)
 *    tells the event deliverer to drop the contact's events raised until now that are
 *    still in flight (queued, in a lane, behind a retry); its search-index entry and its place in the count go (contacts/list `total` drops
 *    by one at once, exactly once);
 * 3. each message keeps a skeleton (type, direction, times, send state, delivery
 *    status) without content, phone or apiReference; its media record and stored bytes
 *    go (shared/domain/media.ts); its history entry is deleted;
 * 4. its events (events log, deliveries, delivery lanes, and events not yet handed off),
 *    the conversation, the wa_id map entry, the apiReference claims, the status-change
 *    records, the opted-out entry and the id pointer are deleted; its automation
 *    executions lose the phone and expire (none runs on or raises an event); the number's
 *    suppression records (keyed hashes, shared/data/suppression.ts) stay, so an opt-out
 *    outlives the contact (INTERFACE §15);
 * 5. the contact item is deleted.
 * Before step 1 the request itself is audited (`ERASED#…`: when, which user and key).
 * Every step is idempotent. After a crash, the contact stays hidden (step 1) and the
 * same delete (by phone or id) or `admin contacts recount` runs the steps again to the end.
 * A later inbound message from the number creates a new contact (new id, empty history).
 */
export async function eraseContact(
  channel: ChannelRef,
  ref: ContactRef,
  actor: { userId: string; keyId: string },
): Promise<v.InferOutput<typeof ContactDeleted>> {
  const target = await findContact(channel, ref);
  // The audit comes first, so a crash halfway still leaves it: when and who, nothing of whom.
  await recordErasure(channel, newId('er'), { at: clock.now(), ...actor });
  const messages = await finishErasure(channel, target.phone, target.id);
  // No phone or name in the log: the point of the request is that they go.
  logger.info('contact erased', { channelId: channel.channelId, contactId: target.id, messages });
  return { id: target.id, deleted: true };
}

/** Runs (or runs again) every step of the erasure of the contact `phone` with id `contactId`; returns how many messages it blanked. */
export async function finishErasure(channel: ChannelRef, phone: string, contactId: string): Promise<number> {
  const now = clock.now();
  const contact = await beginErasure(channel, phone, contactId, now);
  if (!contact) return 0;
  // Before its events go: from here the deliverer drops every event of the contact raised until now.
  await writeTombstone(channel, phone, clock.now());
  await uncountContact(channel, contact);
  const entries = await allHistoryEntries(channel, phone);
  await mapLimit(entries, ERASE_CONCURRENCY, async (entry) => {
    // Before the entry that names it goes: a crash leaves the media findable by the next run.
    const media = entry.content && inboundMediaOf(entry.type, entry.content as InboundContent);
    if (media) await eraseMedia(channel, media.mediaId);
    await eraseMessageContent(channel, entry.messageId, entry.chatmid, now);
    await deleteByKey({ pk: entry.pk, sk: entry.sk });
  });
  await mapLimit(await recordsOfPhone(channel, phone), ERASE_CONCURRENCY, (key) => deleteByKey(key));
  await mapLimit(await eventRecordsOfPhone(channel, phone), ERASE_CONCURRENCY, (key) => deleteByKey(key));
  await forgetExecutionsOf(channel, phone, now);
  await markOptedOut(channel, phone, false, now);
  await deleteConversation(channel, phone);
  if (contact.waId) await deleteWaIdMapping(channel, contact.waId, phone);
  await deleteContactIdPointer(channel, contactId);
  await deleteErasedContact(channel, phone, contactId);
  return entries.length;
}

/**
 * Repair (`admin contacts recount`, before the index rebuild): finishes every erasure a
 * crash interrupted, writes the id pointer of every other contact (contacts created
 * before ids were looked up by pointer have none) and the history entry of every
 * message (messages stored before the history existed; an entry a crash left behind its
 * message). Reads all the channel's contacts and messages.
 */
export async function repairContacts(channel: ChannelRef): Promise<{ erasuresFinished: number; idPointers: number; historyEntries: number }> {
  const contacts = await contactsForRepair(channel);
  let erasuresFinished = 0;
  const live = contacts.filter((contact) => contact.erasing === undefined);
  for (const contact of contacts) {
    if (contact.erasing === undefined) continue;
    await finishErasure(channel, contact.phone, contact.id);
    erasuresFinished += 1;
  }
  await writeIdPointers(channel, live);
  const historyEntries = await rebuildHistoryEntries(channel);
  return { erasuresFinished, idPointers: live.length, historyEntries };
}
