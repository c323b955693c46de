import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { countDbCalls } from '../../bench/counter';
import { db, getItem, putItem } from '../../shared/data/client';
import { changeIndexEntries, ContactIndexItem, IndexEntryReader, indexItemEntries, packIndexEntries, PACKED_ENTRIES } from '../../shared/data/contact-index';
import { rebuildContactIndex } from '../../shared/data/contact-index-rebuild';
import { contactIdGroupOf, contactIndexItemOf, groupedContactId, isContactIndexChunk, keys } from '../../shared/data/keys';
import type { ChannelRef, Key } from '../../shared/identity';
import { streamContactIndex } from '../../shared/domain/contact-index-select';
import { newId } from '../../shared/ids';
import { AnyItem } from '../support/table';

const counter = countDbCalls(db);
afterAll(() => counter.remove());

const channelOf = (): ChannelRef => ({ workspaceId: `ws_${randomUUID()}`, channelId: 'ch_index' });
const chunkOf = (channel: ChannelRef) => contactIndexItemOf(channel, { id: groupedContactId(contactIdGroupOf(newId('ct')), 0), phone: '' });
const unpacked = (packed: string) => {
  const entries: Array<[string, string]> = [];
  const reader = IndexEntryReader.ofPacked(packed);
  while (reader.next()) entries.push([reader.phone, reader.name]);
  return entries;
};
const entriesAt = async (key: Key) => {
  const item = await getItem(key, ContactIndexItem, { consistent: true });
  return item ? [...indexItemEntries(item).entries].sort() : [];
};

describe('packed index entries', () => {
  it('read back exactly what was packed, whatever characters a name holds', () => {
    // Prepare: names of 0–64 code units with digits, length characters, line breaks, quotes, astral characters (any code point)
    const entry = fc.tuple(
      fc.stringMatching(/^\d{8,15}$/),
      fc.oneof(fc.string({ maxLength: 64 }), fc.string({ unit: 'binary', maxLength: 32 }), fc.constant('12=3x'), fc.constant('x'.repeat(64))),
    );
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 40 }), (entries) => {
        // Act
        const back = unpacked(packIndexEntries(entries));
        // Assess
        expect(back).toEqual(entries);
      }),
    );
  });

  it('refuse a string not in the packed format instead of reading half of it', () => {
    // Prepare / Act / Assess
    for (const corrupt of ['14155550100', 'alice', '14155550100Dalice', '14155550100|x', '14155550100 x', '14155550100=ann14155550101'])
      expect(() => unpacked(corrupt), corrupt).toThrow(/Malformed/);
  });

  it('refuse to pack what they could not read back: a phone not all digits, a name past the indexed 64', () => {
    // Prepare / Act / Assess
    expect(() => packIndexEntries([['+14155550100', 'ann']])).toThrow(RangeError);
    expect(() => packIndexEntries([['14155550100', 'x'.repeat(65)]])).toThrow(RangeError);
  });

  it('are read from either layout, the keys never taken for entries', () => {
    // Prepare: a packed chunk that also still holds an entry one attribute each (written before the packing)
    const item = ['pk', 'WS#w#CH#c', 'sk', 'CIDX#ct_abc', PACKED_ENTRIES, packIndexEntries([['14155550100', 'ann']]), '14155550101', 'bob'];
    const seen: string[] = [];
    // Act
    const reader = IndexEntryReader.ofItem(item);
    while (reader.next()) seen.push(`${reader.phone}=${reader.name}`);
    // Assess
    expect(seen).toEqual(['14155550100=ann', '14155550101=bob']);
  });
});

describe('changeIndexEntries', () => {
  it('writes an import chunk as one packed attribute, and a hash bucket one attribute an entry', async () => {
    // Prepare
    const channel = channelOf();
    const chunk = chunkOf(channel);
    const bucket = keys.contactIndexBucket(channel, 7);
    // Act
    await changeIndexEntries(
      chunk,
      {
        set: [
          ['14155550100', 'ann'],
          ['14155550101', 'bob'],
        ],
      },
      { fresh: true },
    );
    await changeIndexEntries(bucket, { set: [['14155550102', 'cy']] });
    // Assess
    expect(isContactIndexChunk(chunk)).toBe(true);
    expect(await getItem(chunk, AnyItem, { consistent: true })).toEqual({ ...chunk, [PACKED_ENTRIES]: '14155550100=ann14155550101=bob' });
    expect(await getItem(bucket, AnyItem, { consistent: true })).toEqual({ ...bucket, '14155550102': 'cy' });
  });

  it('renames and removes one entry of a chunk, keeping the others, and leaves no erased number in it', async () => {
    // Prepare
    const chunk = chunkOf(channelOf());
    await changeIndexEntries(
      chunk,
      {
        set: [
          ['14155550100', 'ann'],
          ['14155550101', 'bob'],
          ['14155550102', 'cy'],
        ],
      },
      { fresh: true },
    );
    // Act
    await changeIndexEntries(chunk, { set: [['14155550101', 'robert']] });
    await changeIndexEntries(chunk, { remove: ['14155550102'] });
    // Assess
    expect(await entriesAt(chunk)).toEqual([
      ['14155550100', 'ann'],
      ['14155550101', 'robert'],
    ]);
    expect(JSON.stringify(await getItem(chunk, AnyItem, { consistent: true }))).not.toContain('14155550102');
  });

  it('loses no entry when 32 writers change one chunk at once (each retries from a fresh read)', async () => {
    // Prepare
    const chunk = chunkOf(channelOf());
    const phones = Array.from({ length: 32 }, (_, i) => String(14155550200 + i));
    // Act: a finisher-like merge (read first) and owner-like writes (assuming a new chunk) side by side
    await Promise.all(phones.map((phone, i) => changeIndexEntries(chunk, { set: [[phone, `name ${i}`]] }, { fresh: i % 2 === 0 })));
    // Assess
    expect(await entriesAt(chunk)).toEqual(phones.map((phone, i) => [phone, `name ${i}`]).sort());
  });

  it('writes nothing when the chunk already holds the change, or does not exist for a removal', async () => {
    // Prepare
    const channel = channelOf();
    const chunk = chunkOf(channel);
    await changeIndexEntries(chunk, { set: [['14155550100', 'ann']] }, { fresh: true });
    // Act
    counter.start();
    await changeIndexEntries(chunk, { set: [['14155550100', 'ann']] });
    await changeIndexEntries(chunk, { remove: ['14155550999'] });
    await changeIndexEntries(chunkOf(channel), { remove: ['14155550100'] });
    const calls = counter.stop();
    // Assess
    expect(calls.map((call) => call.command)).toEqual(['GetItemCommand', 'GetItemCommand', 'GetItemCommand']);
    expect(await getItem(chunk, AnyItem, { consistent: true })).toEqual({ ...chunk, [PACKED_ENTRIES]: '14155550100=ann' });
  });

  it('packs a chunk written one attribute an entry on its next change, and the recount packs every such chunk', async () => {
    // Prepare: two chunks in the layout before the packing
    const channel = channelOf();
    const group = contactIdGroupOf(newId('ct'));
    const ids = [groupedContactId(group, 0), groupedContactId(group, 40)];
    const [first, second] = ids.map((id) => contactIndexItemOf(channel, { id, phone: '' }));
    await putItem({ ...first, '14155550100': 'ann', '14155550101': 'bob' });
    await putItem({ ...second, '14155550102': 'cy' });
    // Act
    await changeIndexEntries(first, { set: [['14155550101', 'robert']] });
    const streamed: string[] = [];
    await streamContactIndex(channel, (phone, name) => streamed.push(`${phone}=${name}`));
    // Assess
    expect(await getItem(first, AnyItem, { consistent: true })).toEqual({ ...first, [PACKED_ENTRIES]: '14155550100=ann14155550101@robert' });
    expect(streamed.sort()).toEqual(['14155550100=ann', '14155550101=robert', '14155550102=cy']);
    // Act: the recount, with the contacts these entries stand for
    for (const [id, phone, name] of [
      [ids[0], '14155550100', 'Ann'],
      [groupedContactId(group, 1), '14155550101', 'Robert'],
      [ids[1], '14155550102', 'Cy'],
    ])
      await putItem({ ...keys.contact(channel, phone), entity: 'contact', id, phone, name });
    const rebuild = await rebuildContactIndex(channel);
    // Assess
    expect(rebuild.bucketsWritten).toBe(1);
    expect(await getItem(second, AnyItem, { consistent: true })).toEqual({ ...second, [PACKED_ENTRIES]: '14155550102<cy' });
  });
});
