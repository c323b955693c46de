import * as v from 'valibot';
import type { ChannelRef } from '../identity';
import { getItem, update, when } from './client';
import { keys } from './keys';

/**
 * The channel's contact head (sk `CONTACT#`, sorting first among contacts): the contact
 * count, the definitions version, and what deep pages check their kept phone order
 * against (the phones version and the phones counted last). Page 1 reads it with the
 * first contacts in one query (contacts.ts `firstContactPage`); every change of the
 * channel's set of phones moves it here, in the count write it makes anyway.
 */

/**
 * The head as stored: counters and versions, each written by an update of its own (so no
 * write creates it whole and it carries no entity tag), each absent until first written.
 */
export const ContactHeadItem = v.looseObject({
  /** No tag: what tells the head from a contact in page 1's query. */
  entity: v.optional(v.never()),
  contactCount: v.optional(v.number(), 0),
  phonesVersion: v.optional(v.number(), 0),
  recentPhones: v.optional(v.array(v.string()), () => []),
  /** The definitions version (shared/data/definitions.ts) and the per-channel caps' counters. */
  defsVersion: v.optional(v.number(), 0),
  labelCount: v.optional(v.number()),
  fieldCount: v.optional(v.number()),
});

export interface ContactHead {
  contactCount: number;
  defsVersion: number;
}

/**
 * The head's log of the phones most recently counted (`recentPhones`), one entry per
 * unit of `phonesVersion`: the last entry is version `phonesVersion`, the one before it
 * `phonesVersion − 1`, … So a container whose kept phone order is a few creates old
 * brings it up to date from the head it reads anyway, without reading the index. Any
 * other change of the phones (an erasure, a bulk import's chunk, the recount) empties
 * the log in its count write: those containers read the index once. So the log never
 * holds an erased number (an erasure empties it), and it stays short, so the head stays
 * within 1 KB (1 WRU a count write, 1 RRU a consistent read; 48 phones of 15 digits
 * are ≈ 0.8 KB with the list's overhead): trimmed to {@link RECENT_PHONES_KEPT} entries
 * once longer than {@link RECENT_PHONES_MAX}.
 */
export const RECENT_PHONES_KEPT = 32;
export const RECENT_PHONES_MAX = 48;

/** The head as deep pages read it: count, phones version and the phones counted last. */
export interface PhonesHead {
  contactCount: number;
  phonesVersion: number;
  recentPhones: string[];
}

/** The head's count, phones version and recent log (one consistent GetItem): what deep pages check their kept phone order against. */
export async function readPhonesHead(channel: ChannelRef): Promise<PhonesHead> {
  const read = ['contactCount', 'phonesVersion', 'recentPhones'] as const;
  const head = await getItem(keys.contactHead(channel), v.pick(ContactHeadItem, read), { consistent: true, attributes: read });
  return { contactCount: head?.contactCount ?? 0, phonesVersion: head?.phonesVersion ?? 0, recentPhones: head?.recentPhones ?? [] };
}

/**
 * The count write of one created contact: adds 1 to the count and the phones version
 * and appends the phone to the recent log, in one write; trims the log when it grew
 * past {@link RECENT_PHONES_MAX} (one more write, about once in 16 creates, only while
 * no other change came in between).
 */
export async function countCreatedContact(channel: ChannelRef, phone: string): Promise<void> {
  const head = keys.contactHead(channel);
  const after = await update(head)
    .add('contactCount', 1)
    .add('phonesVersion', 1)
    .append('recentPhones', [phone])
    .sendReturning(v.pick(ContactHeadItem, ['phonesVersion', 'recentPhones']), 'UPDATED_NEW');
  const log = after?.recentPhones ?? [];
  if (log.length <= RECENT_PHONES_MAX) return;
  await update(head).set('recentPhones', log.slice(-RECENT_PHONES_KEPT)).when(when.eq('phonesVersion', after!.phonesVersion)).send();
}

/**
 * The count write of any other change of the channel's phones (`delta` contacts: an
 * erasure, an import's claimed chunk): the phones version moves on and the recent log is
 * emptied (a chunk would push the head past 1 KB), so deep pages' kept phone orders
 * older than this are read again from the index (shared/domain/contact-index-select.ts).
 */
export async function countPhonesChange(channel: ChannelRef, delta: number): Promise<void> {
  await update(keys.contactHead(channel))
    .add('contactCount', delta)
    .add('phonesVersion', Math.max(1, Math.abs(delta)))
    .set('recentPhones', [])
    .send();
}

/** The recount's write: the counts as found, the phones version moved on and an empty recent log (kept phone orders are read again). */
export async function setHeadCounts(channel: ChannelRef, counts: { contactCount: number; labelCount: number; fieldCount: number }): Promise<void> {
  await update(keys.contactHead(channel))
    .setAll({ ...counts, recentPhones: [] })
    .add('phonesVersion', 1)
    .send();
}
