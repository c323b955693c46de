import { getItem, update, when } from './client';
import { INDEX_NAME_LENGTH, isContactIndexChunk } from './keys';
import type { Key } from '../identity';

/**
 * How the compact contact index stores its entries (phone digits → lowercased name
 * prefix), and every write of them. Two layouts, by item (keys.ts `contactIndexItemOf`):
 *
 * - **Hash buckets** (`CIDX#<000..fff>`, contacts created one by one): one attribute an
 *   entry, `<phone digits>` = name, written blind (`SET`/`REMOVE` of that attribute), so
 *   concurrent creates in one bucket never conflict.
 * - **Import chunks** (`CIDX#ct_…`, the ≤ 32 contacts of one import call's id group):
 *   the entries **packed into one string attribute**, `entries` = `<phone digits><one
 *   character for the name's length><name>` repeated ({@link packIndexEntries}). A 1M-contact
 *   imported channel is ≈ 31,000 chunks; stored one attribute an entry, each chunk is an
 *   object of 32 attribute names no other item shares, and building and collecting those
 *   objects (in dynalite's decoding, in the reader's parsing) was most of a search's
 *   time (docs/PERFORMANCE.md, "Deep pages and search at 1M contacts"). Packed, a chunk
 *   is three attributes of fixed names. A change of a chunk's entries (a rename or an
 *   erasure of an imported contact, an import finisher) is a read-modify-write
 *   conditional on the packed string read ({@link changeIndexEntries}).
 *
 * Readers take either layout from any item ({@link visitIndexItem}); a chunk written one
 * attribute an entry (before the packing) is read as it is, and packed by its next change
 * or by `admin contacts recount`.
 */

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
const NAME_LENGTH_MAX = INDEX_NAME_LENGTH;

/** Entries as one string: `<phone digits><length character><name>` each, concatenated. */
export function packIndexEntries(entries: Iterable<readonly [string, string]>): string {
  let packed = '';
  for (const [phone, name] of entries) {
    if (!/^\d+$/.test(phone) || name.length > NAME_LENGTH_MAX)
      throw new RangeError(`No packed index entry for ${phone.length} digits, a name of ${name.length}`);
    packed += phone + String.fromCharCode(LENGTH_BASE + name.length) + name;
  }
  return packed;
}

/** Calls `visit` with each entry of a packed string, in order. A string not in the packed format throws (a corrupt item is not silently half-read). */
export function unpackIndexEntries(packed: string, visit: (phone: string, name: string) => void): void {
  let at = 0;
  while (at < packed.length) {
    let phoneEnd = at;
    while (phoneEnd < packed.length && isDigit(packed.charCodeAt(phoneEnd))) phoneEnd++;
    const length = packed.charCodeAt(phoneEnd) - LENGTH_BASE;
    const nameEnd = phoneEnd + 1 + length;
    if (phoneEnd === at || !(length >= 0 && length <= NAME_LENGTH_MAX) || nameEnd > packed.length) throw new Error(`Malformed packed index entries at ${at}`);
    visit(packed.slice(at, phoneEnd), packed.slice(phoneEnd + 1, nameEnd));
    at = nameEnd;
  }
}

const isDigit = (code: number) => code >= 0x30 && code <= 0x39;

/** Calls `visit` with each entry of an index item given as attribute name, value, name, value… (either layout; the keys are skipped). */
export function visitIndexItem(attributes: readonly string[], visit: (phone: string, name: string) => void): void {
  for (let i = 0; i < attributes.length; i += 2) {
    const name = attributes[i];
    if (name === PACKED_ENTRIES) unpackIndexEntries(attributes[i + 1], visit);
    else if (name !== 'pk' && name !== 'sk') visit(name, attributes[i + 1]);
  }
}

/** An index item's entries (either layout), and whether it holds entries one attribute each that its layout packs. */
export function indexItemEntries(item: Record<string, unknown>): { entries: IndexEntries; unpacked: string[] } {
  const entries: IndexEntries = new Map();
  const unpacked: string[] = [];
  const chunk = isContactIndexChunk({ pk: String(item.pk), sk: String(item.sk) });
  visitIndexItem(
    Object.entries(item).flatMap(([name, value]) => [name, String(value)]),
    (phone, name) => entries.set(phone, name),
  );
  if (chunk) for (const name of Object.keys(item)) if (name !== 'pk' && name !== 'sk' && name !== PACKED_ENTRIES) unpacked.push(name);
  return { entries, unpacked };
}

/** The whole index item holding `entries` at `key`, in its layout (what the recount Puts). */
export function indexItem(key: Key, entries: IndexEntries): Key & Record<string, string> {
  return isContactIndexChunk(key) ? { ...key, [PACKED_ENTRIES]: packIndexEntries(entries) } : { ...key, ...Object.fromEntries(entries) };
}

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
    const item = read ? await getItem<Record<string, string>>(key, { consistent: true }) : undefined;
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
