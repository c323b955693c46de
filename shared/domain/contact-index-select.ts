import { readPhonesHead, type PhonesHead } from '../data/contact-head';
import { contactIndexPages } from '../data/contact-index';
import type { ChannelRef } from '../identity';
import { TtlCache } from '../cache/ttl-cache';

/** A channel's phones in order, and the head's count and phones version it stands for. */
interface PhoneOrder {
  contactCount: number;
  phonesVersion: number;
  phones: string[];
}

/**
 * The channel's phones in order, per warm container (the one per-container cache), used
 * while the head's contact count and phones version (bumped by every create, in the
 * count write it already makes) are unchanged, or brought up to date from the head's
 * recent log: a deep page then reads the head and the page's contacts, not the index.
 * Memory grows with the channel (docs/PERFORMANCE.md has the cost a phone): two channels
 * at most, and none past 2M phones.
 */
const phoneOrders = new TtlCache<string, PhoneOrder>({ maxAgeMs: Infinity, maxEntries: 2, keep: (order) => order.phones.length <= 2_000_000 });

/**
 * One deep page (no search) in 2 table reads however stale this container's phone
 * order is by single creates and erasures: one consistent GetItem of the head, then the
 * page's contacts (by the caller). The order is current when the head's count and phones
 * version are those it was kept under; a few versions older, it is brought up to date
 * from the head's recent log (the phones counted last, one a version); otherwise (a
 * cold container, an erasure, a bulk import, a recount, more creates than the log keeps) it is read
 * from the streamed index and kept. The head is read before the index, and a create
 * writes its index entry before the count and version, so an order kept under a version
 * holds every phone counted in it. Renames do not change the order.
 */
export async function selectDeepPage(channel: ChannelRef, offset: number, limit: number): Promise<{ phones: string[]; total: number }> {
  const head = await readPhonesHead(channel);
  let kept: PhoneOrder | undefined;
  const order = await phoneOrders.get(
    `${channel.workspaceId}#${channel.channelId}`,
    async () => (kept && caughtUp(kept, head)) ?? { contactCount: head.contactCount, phonesVersion: head.phonesVersion, phones: await indexOrder(channel) },
    ({ value }) => {
      kept = value;
      return value.contactCount === head.contactCount && value.phonesVersion === head.phonesVersion;
    },
  );
  return { phones: order.phones.slice(offset, offset + limit), total: order.phones.length };
}

/**
 * Calls `visit` with every entry of the channel's compact index, page by page as the
 * index is read (shared/data/contact-index.ts `contactIndexPages`: memory stays at a few
 * pages plus what `visit` keeps; entries come in no particular order). The strings are
 * cut from their response's text: one kept past the call may keep that text alive
 * ({@link own} copies a phone).
 */
export async function streamContactIndex(channel: ChannelRef, visit: (phone: string, name: string) => void): Promise<void> {
  for await (const entries of contactIndexPages(channel)) while (entries.next()) visit(entries.phone, entries.name);
}

async function indexOrder(channel: ChannelRef): Promise<string[]> {
  const phones: string[] = [];
  await streamContactIndex(channel, (phone) => phones.push(own(phone)));
  return phones.sort();
}

/**
 * A phone from the streamed index, as a string of its own. The stream's strings are cut
 * from their response's text, and V8 keeps a substring of 13 characters or more as a
 * view of the whole text: one kept phone of 13–15 digits would keep its page's ≈ 1 MB
 * alive (the kept order, all of them). Shorter ones are copies already.
 */
const own = (phone: string) => (phone.length < 13 ? phone : (' ' + phone).slice(1));

/**
 * `order` brought to the head's version from its recent log, or undefined when the log
 * does not reach back to it, or the phones it adds do not add up to the head's count
 * (a contact counted after a crash, already in the order: the index is read instead).
 */
export function caughtUp(order: PhoneOrder, head: PhonesHead): PhoneOrder | undefined {
  const behind = head.phonesVersion - order.phonesVersion;
  if (behind <= 0 || behind > head.recentPhones.length) return undefined;
  const phones = order.phones.slice();
  let added = 0;
  for (const phone of head.recentPhones.slice(-behind)) {
    const at = lowerBound(phones, phone);
    if (phones[at] === phone) continue;
    phones.splice(at, 0, phone);
    added++;
  }
  if (added !== head.contactCount - order.contactCount) return undefined;
  return { contactCount: head.contactCount, phonesVersion: head.phonesVersion, phones };
}

/** The first place in sorted `phones` not before `phone`. */
function lowerBound(phones: string[], phone: string): number {
  let low = 0;
  let high = phones.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (phones[mid] < phone) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * Selects one page of contacts/list's searches (and, uncached, deep pages) from the compact index,
 * streamed ({@link streamContactIndex}) instead of read whole and sorted: every
 * entry is tested once and only the `offset + limit` smallest matching phones are kept
 * (a bounded max-heap of phone strings), with the count of all matches. Page 1 of a
 * search at 1M contacts thus holds one query page and 50 phones, not the 1M-entry
 * index; the deepest page holds at most its offset in phones.
 */
export async function selectFromIndex(
  channel: ChannelRef,
  options: { offset: number; limit: number; matches?: (phone: string, name: string) => boolean },
): Promise<{ phones: string[]; total: number }> {
  const keep = options.offset + options.limit;
  const heap = new MaxHeap(keep);
  let total = 0;
  await streamContactIndex(channel, (phone, name) => {
    if (options.matches && !options.matches(phone, name)) return;
    total++;
    heap.offer(phone, own);
  });
  return { phones: heap.sorted().slice(options.offset, keep), total };
}

/** The `capacity` smallest strings offered, by code unit order (the order contacts/list pages in). */
class MaxHeap {
  private readonly items: string[] = [];
  constructor(private readonly capacity: number) {}

  /** Keeps `value` (as `keep` makes it) if it is among the smallest so far. */
  offer(value: string, keep: (value: string) => string): void {
    if (this.capacity === 0) return;
    const items = this.items;
    if (items.length < this.capacity) {
      items.push(keep(value));
      let i = items.length - 1;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (items[parent] >= items[i]) break;
        [items[parent], items[i]] = [items[i], items[parent]];
        i = parent;
      }
      return;
    }
    if (value >= items[0]) return;
    items[0] = keep(value);
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let largest = i;
      if (left < items.length && items[left] > items[largest]) largest = left;
      if (right < items.length && items[right] > items[largest]) largest = right;
      if (largest === i) break;
      [items[largest], items[i]] = [items[i], items[largest]];
      i = largest;
    }
  }

  sorted(): string[] {
    return [...this.items].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }
}
