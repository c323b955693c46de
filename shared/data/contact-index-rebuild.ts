import * as v from 'valibot';
import type { ChannelRef } from '../identity';
import { mapLimit } from '../map-limit';
import { queryAll } from './batch';
import { deleteItem, putItem, when } from './client';
import { setHeadCounts } from './contact-head';
import { finishAllImportLedgers } from './contact-import';
import { ContactIndexItem, contactIndexName, indexItem, indexItemEntries, writeIndexEntry, type IndexEntries } from './contact-index';
import { ContactItem, contactProjection, finishIndexing } from './contacts';
import { ItemKey } from './entity';
import { contactIndexItemOf, keys } from './keys';

/**
 * The operator's repair of a channel's contact bookkeeping (`admin contacts recount`):
 * finishing contacts a crash left pending, rebuilding the compact contact index from
 * the contact items, and recounting contacts, labels and custom fields. Reads the
 * whole channel, so it is never on a request path.
 */

/**
 * Repair (`admin contacts recount`): first finishes every import ledger a crash left
 * (shared/data/contact-import.ts), then every contact a crash left
 * `indexPending` (its index entry and marker, as its next touch would), then rebuilds
 * the compact index from the contact items (`rebuildContactIndex`), then sets the
 * contact count from the rebuilt index, and the label and custom-field counts of the
 * head item from the definitions themselves (a crash between taking a place and
 * writing the definition leaves one counted too many). Reads the channel's contacts
 * (twice, for the rebuild), so it is an operator's tool, not a request path.
 */
export async function recountContacts(channel: ChannelRef): Promise<number> {
  // Imports a crash left unfinished: claimed now, so no later finisher counts them again on top of the recount.
  await finishAllImportLedgers(channel);
  const { pk, skPrefix } = keys.contactPrefix(channel);
  const pending = await queryAll(pk, skPrefix, ContactItem, { filter: when.eq('indexPending', true), consistent: true });
  // finishIndexing's own count update is overwritten by the recount below.
  for (const contact of pending) await finishIndexing(channel, contact);
  const { indexed: count } = await rebuildContactIndex(channel);
  const [labels, fields] = await Promise.all(
    [keys.labelPrefix(channel), keys.customFieldPrefix(channel)].map(
      async (prefix) => (await queryAll(prefix.pk, prefix.skPrefix, v.pick(ItemKey, ['pk']), { attributes: ['pk'], consistent: true })).length,
    ),
  );
  // phonesVersion and an empty recent log: deep pages' kept phone orders are read again after a recount.
  await setHeadCounts(channel, { contactCount: count, labelCount: labels, fieldCount: fields });
  return count;
}

/** Bucket writes and deletes the rebuild keeps in flight at once. */
const REBUILD_CONCURRENCY = 16;

export interface IndexRebuild {
  /** Contact items read (each is in the index afterwards). */
  contacts: number;
  /** Current buckets rewritten whole (a bucket already exactly right is left alone). */
  bucketsWritten: number;
  /** Index items deleted: buckets of another bucket count (e.g. `CIDX#ab`) and current buckets left empty. */
  bucketsDeleted: number;
  /** Entries written again after the rewrite, for contacts created or renamed while it ran. */
  entriesReapplied: number;
  /** Contacts in the index when the rebuild ended: every contact of the second read (none being erased). */
  indexed: number;
}

/** What the rebuild reads of the items under the contacts' prefix: the key, and what an index entry is made of (the head has none of it). */
const INDEXED = ['id', 'phone', 'name', 'erasing'] as const;
const IndexedContactItem = contactProjection(INDEXED);

/**
 * Rebuilds the channel's compact index from its contact items (part of the recount
 * repair). One paginated, consistent Query of the contacts (`CONTACT#`, only phone and
 * name) gives every bucket's complete map, filed by `contactIndexItemOf` (the hash
 * bucket under the current `CONTACT_INDEX_BUCKETS`, or an imported contact's id-group
 * chunk), each entry as `writeIndexEntry` stores it (phone
 * digits → `contactIndexName`). Each bucket that differs from what the Query of `CIDX#` found
 * (or a chunk still holding entries one attribute each) is then written whole (PutItem
 * of its complete map in its layout, contact-index.ts `indexItem`), and every index item that is not
 * a rebuilt bucket is deleted: buckets of another bucket count (`CIDX#<00..ff>` of the
 * 256-bucket layout), entries whose contact no longer exists, current buckets left empty.
 * That migrates an index written with another bucket count, corrects names left stale by
 * concurrent renames, drops entries without a contact and adds contacts missing from it.
 *
 * Concurrency: a contact created or renamed while this runs writes its own entry, and a
 * whole-bucket Put that lands after that write would replace it with the state read
 * before. So, once every bucket is written, the contacts are queried again (consistent)
 * and the entry of every contact whose name differs from what was written, or that was
 * not read the first time, is written again with `writeIndexEntry` (an update of that
 * one attribute, never a whole bucket). This closes the window without a clock: a
 * clobbered entry was written after its contact item, hence before the Put that
 * clobbered it, hence before the second Query, which therefore sees that contact (or a
 * newer state of it). What remains is the race contacts/manage itself has (two
 * concurrent renames of one contact can leave the older name; docs/RELIABILITY.md), and
 * no worse. Contacts marked `erasing` (contacts/delete) are left out like deleted ones, so
 * an erasure running meanwhile is not undone.
 * The whole index is held in memory (an operator's tool, never a request path).
 */
export async function rebuildContactIndex(channel: ChannelRef): Promise<IndexRebuild> {
  const readContacts = async () => {
    const { pk, skPrefix } = keys.contactPrefix(channel);
    const items = await queryAll(pk, skPrefix, IndexedContactItem, { attributes: ['sk', ...INDEXED], consistent: true });
    // The head item shares the prefix and has no phone; a contact being erased is already out of the index.
    const head = keys.contactHead(channel);
    return items.flatMap(({ sk, id, phone, name, erasing }) =>
      sk !== head.sk && id !== undefined && phone !== undefined && erasing === undefined ? [{ id, phone, name }] : [],
    );
  };
  // phone → the entry as writeIndexEntry stores it, filed where writeIndexEntry files it (its hash bucket or its id group's chunk)
  const entries = new Map<string, string>();
  const buckets = new Map<string, IndexEntries>();
  for (const contact of await readContacts()) {
    const name = contactIndexName(contact.name);
    entries.set(contact.phone, name);
    const { sk } = contactIndexItemOf(channel, contact);
    const bucket = buckets.get(sk) ?? new Map<string, string>();
    bucket.set(contact.phone, name);
    buckets.set(sk, bucket);
  }
  const { pk, skPrefix } = keys.contactIndexPrefix(channel);
  const existing = new Map<string, ReturnType<typeof indexItemEntries>>();
  for (const item of await queryAll(pk, skPrefix, ContactIndexItem, { consistent: true })) existing.set(item.sk, indexItemEntries(item));
  // An item is written when its entries differ, or when it is a chunk still holding entries one attribute each (packed now).
  const changed = [...buckets].filter(([sk, bucket]) => {
    const found = existing.get(sk);
    return !found || found.unpacked.length > 0 || !sameEntries(found.entries, bucket);
  });
  await mapLimit(changed, REBUILD_CONCURRENCY, ([sk, bucket]) => putItem(indexItem({ pk, sk }, bucket)));
  const stale = [...existing.keys()].filter((sk) => !buckets.has(sk));
  await mapLimit(stale, REBUILD_CONCURRENCY, (sk) => deleteItem({ pk, sk }));
  // Contacts created or renamed meanwhile: their own entry may have been overwritten above.
  const current = await readContacts();
  const moved = current.filter((contact) => entries.get(contact.phone) !== contactIndexName(contact.name));
  await mapLimit(moved, REBUILD_CONCURRENCY, (contact) => writeIndexEntry(channel, contact));
  return { contacts: entries.size, bucketsWritten: changed.length, bucketsDeleted: stale.length, entriesReapplied: moved.length, indexed: current.length };
}

function sameEntries(found: IndexEntries, rebuilt: IndexEntries): boolean {
  return found.size === rebuilt.size && [...found].every(([phone, name]) => rebuilt.get(phone) === name);
}
