import * as v from 'valibot';
import { queryAll } from './batch';
import { putItem, update, when } from './client';
import { ContactItem, type ContactRecord } from './contacts';
import { entity, keyed, tagged, type Stored } from './entity';
import { eventTicket, withPendingEvent, type EventTicket, type PendingEvent } from './event-outbox';
import { keys, optedOutPhones } from './keys';
import { liftSuppression, suppress } from './suppression';
import type { ChannelRef } from '../identity';

/**
 * A contact's opt-out status (`active` or `opted_out`), how it changes, and the
 * records kept beside it:
 * - the status on the contact item, with `statusChangedAt` and `statusSource`: it moves
 *   by time only (a change is applied when it is not older than the last one), so an
 *   inbound STOP and START delivered out of order end in the later one's status;
 * - an audit record per change (`OPTLOG#…`: when, how, by whom or by which message);
 * - the channel's opted-out sets (`OPTOUT#<0..f>`: phone → time), which contacts/list
 *   reads to filter by status without reading contacts only to drop them.
 */

export type ContactStatus = ContactRecord['status'];

export type StatusSource = NonNullable<ContactRecord['statusSource']>;

const status = ContactItem.entries.status.wrapped;

/** A status change as it is applied: to what, how, when and by whom. */
const StatusChange = v.object({
  status,
  source: ContactItem.entries.statusSource.wrapped,
  /** When it happened (the message's time for a keyword), ms since the epoch. */
  at: v.number(),
  /** The keyword as written (trimmed), for `keyword` changes. */
  keyword: v.optional(v.string()),
  /** The inbound message that carried the keyword. */
  chatmid: v.optional(v.string()),
  /** The API user that changed it, for `api` changes. */
  userId: v.optional(v.string()),
});
export type StatusChange = v.InferOutput<typeof StatusChange>;

/** The audit record of one status change (`OPTLOG#…`): the change, whose, and the status before. */
const StatusChangeItem = entity('contactStatusChange', {
  ...StatusChange.entries,
  changeId: v.string(),
  phone: v.string(),
  contactId: v.string(),
  previousStatus: status,
});
export type StatusChangeRecord = Omit<Stored<typeof StatusChangeItem>, 'entity' | 'changeId'>;

/** The channel's opted-out sets (`OPTOUT#<0..f>`, no entity tag): each number opted out → when (ms). */
const OptedOutSetItem = v.objectWithRest({ pk: v.string(), sk: v.string() }, v.number());

/**
 * Sets the contact's status unless a later change is already recorded (or it is being
 * erased). Returns the contact after the change, with the ticket of `event`'s hand-off
 * when one rode on the write, or undefined when the change was older than the recorded
 * one or there is no such contact.
 */
export async function setContactStatus(
  channel: ChannelRef,
  phone: string,
  change: StatusChange,
  event?: PendingEvent,
): Promise<{ contact: ContactRecord; events?: EventTicket } | undefined> {
  const key = keys.contact(channel, phone);
  const builder = update(key)
    .set('status', change.status)
    .set('statusChangedAt', change.at)
    .set('statusSource', change.source)
    .when(when.and(when.itemExists(), when.notExists('erasing'), when.or(when.notExists('statusChangedAt'), when.lte('statusChangedAt', change.at))));
  // The contact.opted_out / opted_in event rides on the same write (the event outbox); the tenant lets the re-drive complete it.
  if (event) withPendingEvent(builder.set('workspaceId', channel.workspaceId).set('channelId', channel.channelId), key, event, change.at);
  const contact = await builder.sendReturning(ContactItem);
  return contact && { contact, events: event && eventTicket(key, contact) };
}

/**
 * A status change and what is kept beside it, each step idempotent (a repeated webhook or
 * a retry after a crash finishes it): the audit record first (when, how, who or which
 * message, the status before), then the contact's status unless a later change is
 * recorded ({@link setContactStatus}, carrying `event`), then the channel's opted-out
 * set and the number's suppression records (shared/data/suppression.ts, which outlive an
 * erasure). Returns the contact afterwards with the ticket of `event`'s hand-off, or undefined
 * when the change was older than the recorded one or there is no such contact.
 */
export async function writeStatusChange(
  channel: ChannelRef,
  contact: Pick<ContactRecord, 'id' | 'phone' | 'status'>,
  change: StatusChange,
  changeId: string,
  event?: PendingEvent,
): Promise<{ contact: ContactRecord; events?: EventTicket } | undefined> {
  await recordStatusChange(channel, changeId, { ...change, phone: contact.phone, contactId: contact.id, previousStatus: contact.status ?? 'active' });
  const written = await setContactStatus(channel, contact.phone, change, event);
  if (written) {
    const optedOut = written.contact.status === 'opted_out';
    await markOptedOut(channel, contact.phone, optedOut, change.at);
    const numbers = written.contact.waId ? [contact.phone, written.contact.waId] : [contact.phone];
    await (optedOut ? suppress(channel, numbers, change.at) : liftSuppression(channel, numbers, change.at));
  }
  return written;
}

/** Writes the audit record of a status change (idempotent per change id). */
export async function recordStatusChange(channel: ChannelRef, changeId: string, record: StatusChangeRecord): Promise<void> {
  await putItem(tagged(StatusChangeItem, keys.contactStatusChange(channel, record.phone, record.at, changeId), { changeId, ...record }));
}

/** A contact's status changes, oldest first (audit; erasure). */
export async function listStatusChanges(channel: ChannelRef, phone: string): Promise<Array<StatusChangeRecord & { pk: string; sk: string }>> {
  const { pk, skPrefix } = keys.contactStatusChangePrefix(channel, phone);
  return queryAll(pk, skPrefix, keyed(StatusChangeItem), { consistent: true });
}

/** Puts the number into its opted-out set, or takes it out (idempotent). */
export async function markOptedOut(channel: ChannelRef, phone: string, optedOut: boolean, at: number): Promise<void> {
  const change = update(keys.optedOutSet(channel, phone));
  await (optedOut ? change.set(phone, at) : change.remove(phone)).send();
}

/** Every opted-out number of the channel (one query: 16 small items). */
export async function readOptedOut(channel: ChannelRef): Promise<Set<string>> {
  const { pk, skPrefix } = keys.optedOutSetPrefix(channel);
  const items = await queryAll(pk, skPrefix, OptedOutSetItem);
  return new Set(items.flatMap(optedOutPhones));
}
