import { queryRangePageStrings, type StringItem } from './batch';
import { getItem, update, when } from './client';
import { visitIndexItem } from './contact-index-entries';
import { keys } from './keys';
import type { ChannelRef } from '../identity';

/**
 * The channel's compact contact index (the `CIDX#` items: phone digits → lowercased
 * name prefix, in either layout of contact-index-entries.ts) read page by page, each query page (≤ 1 MB) handed to the caller and
 * then dropped, so a reader keeps only what it selects: memory stays at a few pages plus
 * the selection, whatever the channel's size (≈ 28 MB of index at 1M contacts would be
 * ≈ 150 MB as JavaScript objects if held whole). The first page is read alone (a channel
 * up to ≈ 30k contacts: one Query, as before); when there is more, the rest is read as
 * up to 8 key ranges side by side (keys.ts `contactIndexRanges`), so a large channel
 * takes about an eighth of the sequential time in DynamoDB. Pages come in no particular
 * order: readers count, select and sort. The strings handed to `visit` are cut from
 * their response's text: one kept past the call may keep that text alive (a reader
 * copies what it keeps).
 */
export async function streamContactIndex(channel: ChannelRef, visit: (phone: string, name: string) => void): Promise<void> {
  // Read as strings: every entry is a string attribute, and building an object per item (and per attribute) was most of a search's time.
  const visitPage = (items: StringItem[]) => {
    for (const item of items) visitIndexItem(item, visit);
  };
  const { pk, ranges } = keys.contactIndexRanges(channel);
  const first = await queryRangePageStrings(pk, { from: ranges[0].from, to: ranges[ranges.length - 1].to });
  visitPage(first.items);
  if (!first.next) return;
  const rest = keys.contactIndexRanges(channel, String(first.next.sk?.S)).ranges;
  await Promise.all(
    rest.map(async (range, i) => {
      let next = i === 0 ? first.next : undefined;
      do {
        const page = await queryRangePageStrings(pk, range, next);
        visitPage(page.items);
        next = page.next;
      } while (next);
    }),
  );
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
  const head = await getItem<Partial<PhonesHead>>(keys.contactHead(channel), {
    consistent: true,
    attributes: ['contactCount', 'phonesVersion', 'recentPhones'],
  });
  return { contactCount: Number(head?.contactCount ?? 0), phonesVersion: Number(head?.phonesVersion ?? 0), recentPhones: head?.recentPhones ?? [] };
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
    .sendReturning<Partial<PhonesHead>>('UPDATED_NEW');
  const log = after?.recentPhones ?? [];
  if (log.length <= RECENT_PHONES_MAX) return;
  await update(head).set('recentPhones', log.slice(-RECENT_PHONES_KEPT)).when(when.eq('phonesVersion', after!.phonesVersion)).send();
}

/** The count write of any other change of the channel's phones (`delta` contacts): the phones version moves on and the recent log is emptied. */
export async function countPhonesChange(channel: ChannelRef, delta: number): Promise<void> {
  await update(keys.contactHead(channel))
    .add('contactCount', delta)
    .add('phonesVersion', Math.max(1, Math.abs(delta)))
    .set('recentPhones', [])
    .send();
}
