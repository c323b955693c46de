import { readPhonesVersion, streamContactIndex } from '../data/contact-index-stream';
import type { ChannelRef } from '../data/keys';

/**
 * The channel's phones in order, per warm container, while the head's contact count and
 * phones version (bumped by every create, in the count write it already makes) are
 * unchanged: a deep page then reads the head and the page's contacts, not the index.
 * Bounded by phones held across channels (≈ 50 B a phone: ≈ 50 MB at 1M).
 */
const phoneOrders = new Map<string, { contactCount: number; phonesVersion: number; phones: string[] }>();
const MAX_CACHED_PHONES = 2_000_000;

/**
 * One deep page (no search): from this container's phone order when the head says it is
 * current (one consistent GetItem of the head), else from the streamed index, kept for the
 * next page. The head is read before the index, and a create writes its index entry
 * before the count and version, so an order cached under a version holds every phone
 * counted in it. Renames do not change the order; the page's contacts are read by key.
 */
export async function selectDeepPage(channel: ChannelRef, offset: number, limit: number): Promise<{ phones: string[]; total: number }> {
  const key = `${channel.workspaceId}#${channel.channelId}`;
  const head = await readPhonesVersion(channel);
  let order = phoneOrders.get(key);
  if (!order || order.contactCount !== head.contactCount || order.phonesVersion !== head.phonesVersion) {
    const phones: string[] = [];
    await streamContactIndex(channel, (phone) => phones.push(phone));
    phones.sort();
    order = { ...head, phones };
    phoneOrders.delete(key);
    let held = phones.length;
    for (const cached of phoneOrders.values()) held += cached.phones.length;
    for (const [other, cached] of phoneOrders) {
      if (held <= MAX_CACHED_PHONES) break;
      phoneOrders.delete(other);
      held -= cached.phones.length;
    }
    if (phones.length <= MAX_CACHED_PHONES) phoneOrders.set(key, order);
  }
  return { phones: order.phones.slice(offset, offset + limit), total: order.phones.length };
}

/**
 * Selects one page of contacts/list's searches (and, uncached, deep pages) from the compact index,
 * streamed (shared/data/contact-index-stream.ts) instead of read whole and sorted: every
 * entry is tested once and only the `offset + limit` smallest matching phones are kept
 * (a bounded max-heap of phone strings), with the count of all matches. Page 1 of a
 * search at 1M contacts thus holds one query page and 50 phones, not the 1M-entry
 * index; the deepest page holds at most its offset in phones (≈ 40 B each).
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
    heap.offer(phone);
  });
  return { phones: heap.sorted().slice(options.offset, keep), total };
}

/** The `capacity` smallest strings offered, by code unit order (the order contacts/list pages in). */
class MaxHeap {
  private readonly items: string[] = [];
  constructor(private readonly capacity: number) {}

  offer(value: string): void {
    if (this.capacity === 0) return;
    const items = this.items;
    if (items.length < this.capacity) {
      items.push(value);
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
    items[0] = value;
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
