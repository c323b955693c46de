import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { countDbCalls } from '../../bench/counter';
import { db, putItem } from '../../shared/data/client';
import { indexItem } from '../../shared/data/contact-index';
import { contactIdGroupOf, contactIndexItemOf, groupedContactId, keys } from '../../shared/data/keys';
import { streamContactIndex } from '../../shared/domain/contact-index-select';
import { newId } from '../../shared/ids';

const counter = countDbCalls(db);
afterAll(() => counter.remove());

/** Index items written directly (hash buckets and import chunks); returns the phones in them. */
async function seedIndex(channel: { workspaceId: string; channelId: string }, buckets: number, perBucket: number, chunks: number) {
  const entries = new Set<string>();
  let phone = 14150000000;
  const entry = (item: Record<string, string>, filler: string) => {
    const digits = String(++phone);
    item[digits] = `name ${digits} `.padEnd(64, filler);
    entries.add(digits);
  };
  const items: Array<Record<string, string> & { pk: string; sk: string }> = [];
  for (let bucket = 0; bucket < buckets; bucket++) {
    const item: Record<string, string> & { pk: string; sk: string } = { ...keys.contactIndexBucket(channel, (bucket * 17) % 4096) };
    for (let i = 0; i < perBucket; i++) entry(item, 'x');
    items.push(item);
  }
  for (let chunk = 0; chunk < chunks; chunk++) {
    const group = contactIdGroupOf(newId('ct'));
    const key = contactIndexItemOf(channel, { id: groupedContactId(group, 0), phone: '' });
    const chunkEntries: Record<string, string> = {};
    for (let i = 0; i < 32; i++) entry(chunkEntries, 'y');
    // Packed as the import writes them; every tenth chunk one attribute an entry, as written before the packing.
    items.push(chunk % 10 === 9 ? { ...key, ...chunkEntries } : indexItem(key, new Map(Object.entries(chunkEntries))));
  }
  for (let i = 0; i < items.length; i += 16) await Promise.all(items.slice(i, i + 16).map((item) => putItem(item)));
  return entries;
}

describe('streamContactIndex', () => {
  it('reads a small index in one query, and a large one (more than a query page) as side-by-side ranges, every entry once', async () => {
    // Prepare: ≈ 1.8 MB of index (hash buckets and import chunks, packed and not) in one channel, a few entries in another
    const large = { workspaceId: `ws_${randomUUID()}`, channelId: 'ch_large' };
    const small = { workspaceId: large.workspaceId, channelId: 'ch_small' };
    const entries = await seedIndex(large, 200, 100, 100);
    await seedIndex(small, 3, 5, 2);
    // Act
    const seen: string[] = [];
    counter.start();
    await streamContactIndex(large, (phone) => seen.push(phone));
    const largeCalls = counter.stop();
    const smallSeen: string[] = [];
    counter.start();
    await streamContactIndex(small, (phone) => smallSeen.push(phone));
    const smallCalls = counter.stop();
    // Assess
    expect(seen).toHaveLength(entries.size);
    expect(new Set(seen)).toEqual(entries);
    expect(largeCalls.length).toBeGreaterThan(2);
    expect(smallSeen).toHaveLength(3 * 5 + 2 * 32);
    expect(smallCalls).toHaveLength(1);
  });
});
