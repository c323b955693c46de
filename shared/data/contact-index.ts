import * as v from 'valibot';
import type { ChannelRef, Key } from '../identity';
import { mapLimit } from '../map-limit';
import { queryRangePageStrings, type RawItem, type StringItem } from './batch';
import { getItem, update, when } from './client';
import { contactIndexItemOf, isContactIndexChunk, keys } from './keys';

/**
 * The channel's compact contact index: one entry a contact, phone digits → its name
 * lowercased and cut to {@link INDEX_NAME_LENGTH} (~30 bytes a contact), read for
 * searches and deep pages instead of whole contacts. Its entries are written here and
 * nowhere else (a contact's own, an import's in bulk, an erasure's removal), and read
 * here (the whole index, page by page). Two layouts, by item (keys.ts `contactIndexItemOf`):
 *
 * - **Hash buckets** (`CIDX#<000..fff>`, contacts created one by one): one attribute an
 *   entry, `<phone digits>` = name, written blind (`SET`/`REMOVE` of that attribute), so
 *   concurrent creates in one bucket never conflict.
 * - **Import chunks** (`CIDX#ct_…`, the ≤ 32 contacts of one import call's id group):
 *   the entries **packed into one string attribute**, `entries` = `<phone digits><one
 *   character for the name's length><name>` repeated ({@link packIndexEntries}). A
 *   1M-contact imported channel is ≈ 31,000 chunks; stored one attribute an entry, each
 *   chunk is an object of 32 attribute names no other item shares, and building and
 *   collecting those objects (in dynalite's decoding, in the reader's parsing) was most of
 *   a search's time (docs/PERFORMANCE.md, "Deep pages and search at 1M contacts"). Packed,
 *   a chunk is three attributes of fixed names. A change of a chunk's entries (a rename or
 *   an erasure of an imported contact, an import finisher) is a read-modify-write
 *   conditional on the packed string read ({@link changeIndexEntries}).
 *
 * Readers take either layout from any item ({@link IndexEntryReader}); a chunk written one
 * attribute an entry (before the packing) is read as it is, and packed by its next change
 * or by `admin contacts recount`.
 */

/** Characters of a contact's name kept in the compact index for search. */
export const INDEX_NAME_LENGTH = 64;

/** A contact's entry in the compact index: its name lowercased, cut to the indexed prefix (searches match it). */
export const contactIndexName = (name: string | undefined) => (name ?? '').toLowerCase().slice(0, INDEX_NAME_LENGTH);

/** What a contact search matches against `contactIndexName` entries. */
export const contactSearchKey = (search: string) => search.toLowerCase();

// ---- The entries' layout ------------------------------------------------------------------

/** The attribute of an import chunk holding its packed entries. */
export const PACKED_ENTRIES = 'entries';

/** Index entries: phone digits → indexed name. */
export type IndexEntries = Map<string, string>;

/**
 * The character after an entry's phone digits: `:` plus the name's length in UTF-16
 * code units (0–64, the indexed prefix: `:` … `z`, ASCII, never a digit), so an entry costs one byte more
 * than its attribute did and a name may hold any character.
 */
const LENGTH_BASE = 0x3a;

/** Entries as one string: `<phone digits><length character><name>` each, concatenated. */
export function packIndexEntries(entries: Iterable<readonly [string, string]>): string {
  let packed = '';
  for (const [phone, name] of entries) {
    if (!/^\d+$/.test(phone) || name.length > INDEX_NAME_LENGTH)
      throw new RangeError(`No packed index entry for ${phone.length} digits, a name of ${name.length}`);
    packed += phone + String.fromCharCode(LENGTH_BASE + name.length) + name;
  }
  return packed;
}

const isDigit = (code: number) => code >= 0x30 && code <= 0x39;

/**
 * Reads index entries one at a time, in order, without an object an entry (a search at
 * 1M contacts reads a million): `while (reader.next()) use(reader.phone, reader.name)`.
 * It reads a page of items as the index query hands them over (each item's attribute
 * names and values in turn, {@link StringItem}), one item, or one packed string; either
 * layout, the keys skipped. A packed string not in the packed format throws (a corrupt
 * item is not silently half-read).
 */
export class IndexEntryReader {
  /** The current entry's phone digits (after `next()` returned true). */
  phone = '';
  /** The current entry's indexed name. */
  name = '';
  private item = 0;
  private attribute = 0;
  private packed = '';
  private at = 0;

  constructor(private readonly items: readonly StringItem[] = []) {}

  /** A reader of one item's attributes (name, value, name, value…). */
  static ofItem(attributes: StringItem): IndexEntryReader {
    return new IndexEntryReader([attributes]);
  }

  /** A reader of one packed string. */
  static ofPacked(packed: string): IndexEntryReader {
    const reader = new IndexEntryReader();
    reader.packed = packed;
    return reader;
  }

  /** Moves to the next entry; false when there is none left. */
  next(): boolean {
    for (;;) {
      if (this.at < this.packed.length) return this.nextPacked();
      const attributes = this.items[this.item];
      if (attributes === undefined) return false;
      if (this.attribute >= attributes.length) {
        this.item++;
        this.attribute = 0;
        continue;
      }
      const name = attributes[this.attribute];
      const value = attributes[this.attribute + 1];
      this.attribute += 2;
      if (name === PACKED_ENTRIES) {
        this.packed = value;
        this.at = 0;
      } else if (name !== 'pk' && name !== 'sk') {
        this.phone = name;
        this.name = value;
        return true;
      }
    }
  }

  private nextPacked(): boolean {
    const { packed, at } = this;
    let phoneEnd = at;
    while (phoneEnd < packed.length && isDigit(packed.charCodeAt(phoneEnd))) phoneEnd++;
    const length = packed.charCodeAt(phoneEnd) - LENGTH_BASE;
    const nameEnd = phoneEnd + 1 + length;
    if (phoneEnd === at || !(length >= 0 && length <= INDEX_NAME_LENGTH) || nameEnd > packed.length) throw new Error(`Malformed packed index entries at ${at}`);
    this.phone = packed.slice(at, phoneEnd);
    this.name = packed.slice(phoneEnd + 1, nameEnd);
    this.at = nameEnd;
    return true;
  }
}

/** An index item's entries (either layout), and whether it holds entries one attribute each that its layout packs. */
export function indexItemEntries(item: Record<string, unknown>): { entries: IndexEntries; unpacked: string[] } {
  const entries: IndexEntries = new Map();
  const unpacked: string[] = [];
  const chunk = isContactIndexChunk({ pk: String(item.pk), sk: String(item.sk) });
  const reader = IndexEntryReader.ofItem(Object.entries(item).flatMap(([name, value]) => [name, String(value)]));
  while (reader.next()) entries.set(reader.phone, reader.name);
  if (chunk) for (const name of Object.keys(item)) if (name !== 'pk' && name !== 'sk' && name !== PACKED_ENTRIES) unpacked.push(name);
  return { entries, unpacked };
}

/** An index item as stored (no entity tag: its attributes are the entries): every attribute a string, a bucket's `<phone>` → name or a chunk's packed `entries`. */
export const ContactIndexItem = v.objectWithRest({ pk: v.string(), sk: v.string() }, v.string());

/** The whole index item holding `entries` at `key`, in its layout (what the recount Puts). */
export function indexItem(key: Key, entries: IndexEntries): Key & Record<string, string> {
  return isContactIndexChunk(key) ? { ...key, [PACKED_ENTRIES]: packIndexEntries(entries) } : { ...key, ...Object.fromEntries(entries) };
}

// ---- Writes ---------------------------------------------------------------------------------

/** One change of the entries of one index item: names to set (phone → indexed name) and phones to remove. */
export interface IndexEntryChange {
  set?: ReadonlyArray<readonly [string, string]>;
  remove?: readonly string[];
}

/**
 * Applies `change` to the index item at `key` (idempotent). A hash bucket: one blind
 * UpdateItem of the entries' attributes. An import chunk: its entries read (consistent
 * GetItem), changed and written back as one packed string, conditional on the string
 * read (or on its absence), again from the read when another writer came first; no
 * write when nothing changes. `fresh`: the caller expects the chunk not to exist yet
 * (an import's own new chunk), so the first attempt skips the read.
 */
export async function changeIndexEntries(key: Key, change: IndexEntryChange, options: { fresh?: boolean } = {}): Promise<void> {
  if (!isContactIndexChunk(key)) {
    const bucketUpdate = update(key);
    for (const [phone, name] of change.set ?? []) bucketUpdate.set(phone, name);
    if (change.remove?.length) bucketUpdate.remove(...change.remove);
    await bucketUpdate.send();
    return;
  }
  let read = !options.fresh;
  for (;;) {
    const item = read ? await getItem(key, ContactIndexItem, { consistent: true }) : undefined;
    const { entries, unpacked } = item ? indexItemEntries(item) : { entries: new Map<string, string>(), unpacked: [] };
    const before = packIndexEntries(entries);
    for (const phone of change.remove ?? []) entries.delete(phone);
    for (const [phone, name] of change.set ?? []) entries.set(phone, name);
    const after = packIndexEntries(entries);
    if (after === before && unpacked.length === 0 && (item !== undefined || entries.size === 0)) return;
    const packedRead = item?.[PACKED_ENTRIES];
    const chunkUpdate = update(key).set(PACKED_ENTRIES, after);
    if (unpacked.length) chunkUpdate.remove(...unpacked);
    if (await chunkUpdate.when(packedRead === undefined ? when.notExists(PACKED_ENTRIES) : when.eq(PACKED_ENTRIES, packedRead)).send()) return;
    read = true;
  }
}

/** A contact as its index entry names it. */
type IndexedContact = { id?: string; phone: string; name?: string };

/** Writes the contact's compact index entry (idempotent): `<phone digits>` → `contactIndexName(name)` in its index item. */
export async function writeIndexEntry(channel: ChannelRef, contact: IndexedContact): Promise<void> {
  await changeIndexEntries(contactIndexItemOf(channel, contact), { set: [[contact.phone, contactIndexName(contact.name)]] });
}

/** Takes the contact's entry out of the index (idempotent: an erasure). */
export async function removeIndexEntry(channel: ChannelRef, contact: { id: string; phone: string }): Promise<void> {
  await changeIndexEntries(contactIndexItemOf(channel, contact), { remove: [contact.phone] });
}

/** Index writes a bulk write keeps in flight at once. */
const INDEX_WRITE_CONCURRENCY = 16;

/**
 * Writes these contacts' index entries (idempotent), one change per index item touched
 * (keys.ts `contactIndexItemOf`: an import call's id group files its contacts in chunks
 * of 32, others go to their phone's hash bucket), each setting all of that item's
 * entries. The owner of the id group (`ownChunks`) writes its new chunks without reading
 * them first; a finisher reads and merges.
 */
export async function writeIndexEntries(channel: ChannelRef, contacts: IndexedContact[], ownChunks = false): Promise<void> {
  const byItem = new Map<string, { key: Key; entries: IndexedContact[] }>();
  for (const contact of contacts) {
    const key = contactIndexItemOf(channel, contact);
    const item = byItem.get(key.sk);
    if (item) item.entries.push(contact);
    else byItem.set(key.sk, { key, entries: [contact] });
  }
  await mapLimit([...byItem.values()], INDEX_WRITE_CONCURRENCY, ({ key, entries }) =>
    changeIndexEntries(key, { set: entries.map((entry) => [entry.phone, contactIndexName(entry.name)]) }, { fresh: ownChunks }),
  );
}

// ---- The whole index, read page by page -----------------------------------------------------

/**
 * The channel's whole index, one query page (≤ 1 MB) at a time, each handed over as an
 * {@link IndexEntryReader} and then dropped, so a reader keeps only what it selects:
 * memory stays at a few pages plus the selection, whatever the channel's size (the whole
 * index held as JavaScript objects would take several times its size: docs/PERFORMANCE.md,
 * "Large channels"). The first page is read alone (a small channel: one Query); when there is more, the
 * rest is read as up to 8 key ranges side by side (keys.ts `contactIndexRanges`), so a
 * large channel takes about an eighth of the sequential time in DynamoDB. Pages come in
 * no particular order: readers count, select and sort. The strings a reader hands out
 * are cut from their response's text: one kept past its page may keep that text alive
 * (a reader copies what it keeps).
 */
export async function* contactIndexPages(channel: ChannelRef): AsyncGenerator<IndexEntryReader> {
  // Read as strings: every entry is a string attribute, and building an object per item (and per attribute) was most of a search's time.
  const { pk, ranges } = keys.contactIndexRanges(channel);
  const first = await queryRangePageStrings(pk, { from: ranges[0].from, to: ranges[ranges.length - 1].to });
  yield new IndexEntryReader(first.items);
  if (!first.next) return;
  const rest = keys.contactIndexRanges(channel, String(first.next.sk?.S)).ranges;
  const readRange = (range: number, startKey?: RawItem) => queryRangePageStrings(pk, rest[range], startKey).then((page) => ({ range, page }));
  const reading = new Map(rest.map((_, range) => [range, readRange(range, range === 0 ? first.next : undefined)] as const));
  try {
    while (reading.size > 0) {
      const { range, page } = await Promise.race(reading.values());
      reading.delete(range);
      if (page.next) reading.set(range, readRange(range, page.next));
      yield new IndexEntryReader(page.items);
    }
  } finally {
    // Stopped early (a failed read, or a reader that stopped): the reads still under way are not waited for, nor their failures left unhandled.
    for (const read of reading.values()) read.catch(() => undefined);
  }
}
