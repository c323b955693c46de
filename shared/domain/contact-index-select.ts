import { streamContactIndex } from '../data/contact-index-stream';

/**
 * Selects one page of contacts/list's deep pages and searches from the compact index,
 * streamed (shared/data/contact-index-stream.ts) instead of read whole and sorted: every
 * entry is tested once and only the `offset + limit` smallest matching phones are kept
 * (a bounded max-heap of phone strings), with the count of all matches. Page 1 of a
 * search at 1M contacts thus holds one query page and 50 phones, not the 1M-entry
 * index; the deepest page holds at most its offset in phones (≈ 40 B each).
 */
export async function selectFromIndex(
  workspaceId: string,
  channelId: string,
  options: { offset: number; limit: number; matches?: (phone: string, name: string) => boolean },
): Promise<{ phones: string[]; total: number }> {
  const keep = options.offset + options.limit;
  const heap = new MaxHeap(keep);
  let total = 0;
  await streamContactIndex(workspaceId, channelId, (phone, name) => {
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
