import * as v from 'valibot';
import { clock } from '../clock';
import type { ChannelRef } from '../identity';
import { batchGetAll, queryAll } from './batch';
import { deleteItem, getItem, putIfAbsent, putItem, update, when } from './client';
import { countPhonesChange } from './contact-head';
import { writeIdPointers } from './contact-ids';
import { writeIndexEntries } from './contact-index';
import { ContactItem, newContactRecord, type ContactChanges, type ContactRecord } from './contacts';
import { entity, keyed, tagged, type Stored } from './entity';
import { keys } from './keys';

/**
 * Table access of contacts/import (bulk creates). contacts/manage makes a new contact
 * exact with a per-contact `indexPending` marker that its creator clears before counting
 * (≈ 5 writes a contact with its id pointer). An import creates up to 1,000 contacts a call and keeps the
 * same guarantees (one item per number, the index and the count exact, a crash finished
 * by re-running) for ≈ 1.1 writes a contact (its conditional Put, plus a few writes a call), with an **import ledger** instead of the
 * per-contact marker:
 *
 * 1. the ledger item (`CIMP#<id>`: the phones this call is about to create) is written
 *    before any of them;
 * 2. each contact is a conditional Put (`attribute_not_exists`, as every create: a
 *    number written meanwhile by anyone else is updated instead) carrying
 *    `importedBy: <ledger id>`;
 * 3. the index entries of the created contacts are written grouped by index item (the
 *    call's contacts get ids of one group, contact-ids.ts `groupedContactIds`, whose
 *    chunks of 32 hold their entries: one UpdateItem a chunk, contact-index.ts
 *    `writeIndexEntries`), and their id pointers as one item (one PutItem instead of one
 *    a contact, contact-ids.ts `writeIdPointers`);
 * 4. the created phones are *claimed* in the ledger (string set `counted`, a condition
 *    per phone, 40 phones an update), and each claimed chunk is at once added to the
 *    head's `contactCount` (only what a caller claimed);
 * 5. the ledger is deleted.
 *
 * A crash leaves the ledger and contacts carrying its id. Whoever meets such a contact
 * (the same import run again, any other import of it, `admin contacts recount`)
 * finishes the ledger: its phones whose contact names it are indexed, claimed and
 * counted. Claims are per phone, so the ledger's owner, still running, and a finisher
 * never count one contact twice. A crash between a claim and its count (one update to
 * the next) leaves the count short by that chunk, repaired by the recount (as
 * contacts/manage's crash between its claim and its count). Only a ledger older than any
 * call can run ({@link IMPORT_CALL_MAX_MS}) is deleted by a finisher.
 */

/** Longer than any import call can run (Lambda's hard limit is 15 minutes): a ledger this old has no live owner. */
export const IMPORT_CALL_MAX_MS = 15 * 60 * 1000;

/** Table writes an import keeps in flight at once (per call). */
export const IMPORT_WRITE_CONCURRENCY = 16;

/** Phones claimed in one conditional update (each adds a `NOT contains` to the condition, limited to 4 KB). */
const CLAIM_CHUNK = 40;

export interface ImportLedger {
  id: string;
  phones: string[];
  counted: Set<string>;
  startedAt: number;
}

/** One contacts/import call's ledger (`CIMP#<id>`): the phones it is about to create, and those claimed in the count. */
const ImportLedgerItem = entity('contactImport', {
  phones: v.array(v.string()),
  /** A string set: absent until the first claim (DynamoDB keeps no empty set). */
  counted: v.optional(v.set(v.string())),
  startedAt: v.number(),
});
/** A ledger as read, with its key (its id is the sort key's). */
const KeyedLedgerItem = keyed(ImportLedgerItem);

/** A contact as the import reads it: the record, and the ledger that created it when an import did. */
export type StoredContact = ContactRecord;

/** Reads the contacts of these phones (consistent BatchGet, 100 a call) by phone. */
export async function readContacts(channel: ChannelRef, phones: string[]): Promise<Map<string, StoredContact>> {
  const found = await batchGetAll(
    phones.map((phone) => keys.contact(channel, phone)),
    ContactItem,
    true,
  );
  return new Map(found.map((contact) => [contact.phone, contact]));
}

/** Step 1: the ledger of the phones this call is about to create (one Put, ≈ 16 B a phone). */
export async function putImportLedger(channel: ChannelRef, ledgerId: string, phones: string[]): Promise<void> {
  await putItem(tagged(ImportLedgerItem, keys.contactImportLedger(channel, ledgerId), { phones, startedAt: clock.now() }));
}

/**
 * Step 2: creates the contact unless its number exists (then undefined: the caller
 * updates it instead), with the id given (one of the call's id group) or a random one.
 */
export async function createImportedContact(
  channel: ChannelRef,
  phone: string,
  changes: ContactChanges,
  ledgerId: string,
  id?: string,
): Promise<ContactRecord | undefined> {
  const record = newContactRecord(phone, changes);
  const contact: ContactRecord = { ...record, id: id ?? record.id, importedBy: ledgerId };
  const created = await putIfAbsent(tagged(ContactItem, keys.contact(channel, phone), contact));
  return created === 'created' ? contact : undefined;
}

/**
 * Step 4: claims `phones` in the ledger and adds what this caller claimed to the
 * channel's contact count. A phone another caller claimed first is left to it; a ledger
 * already deleted has nothing left to claim (its owner counted everything first).
 * Returns the number counted.
 */
export async function claimAndCount(channel: ChannelRef, ledgerId: string, phones: string[]): Promise<number> {
  const key = keys.contactImportLedger(channel, ledgerId);
  let pending = [...new Set(phones)];
  let claimed = 0;
  while (pending.length > 0) {
    const chunk = pending.slice(0, CLAIM_CHUNK);
    const ok = await update(key)
      .add('counted', new Set(chunk))
      .when(when.and(when.itemExists(), ...chunk.map((phone) => when.notContains('counted', phone))))
      .send();
    if (ok) {
      // Counted at once, chunk by chunk: a crash leaves at most one chunk claimed and not counted (the recount repairs it).
      await countPhonesChange(channel, chunk.length);
      claimed += chunk.length;
      pending = pending.slice(chunk.length);
      continue;
    }
    const ledger = await getImportLedger(channel, ledgerId);
    if (!ledger) break;
    pending = pending.filter((phone) => !ledger.counted.has(phone));
  }
  return claimed;
}

/** Step 5: the call's own ledger, once everything it created is indexed and counted. */
export async function deleteImportLedger(channel: ChannelRef, ledgerId: string): Promise<void> {
  await deleteItem(keys.contactImportLedger(channel, ledgerId));
}

const toLedger = (item: Stored<typeof KeyedLedgerItem>): ImportLedger => ({
  id: item.sk.slice('CIMP#'.length),
  phones: item.phones,
  counted: new Set(item.counted ?? []),
  startedAt: item.startedAt,
});

async function getImportLedger(channel: ChannelRef, ledgerId: string): Promise<ImportLedger | undefined> {
  const item = await getItem(keys.contactImportLedger(channel, ledgerId), KeyedLedgerItem, { consistent: true });
  return item ? toLedger(item) : undefined;
}

/**
 * Finishes the ledgers with these ids that still exist (a crashed or concurrent
 * import's): indexes, claims and counts each one's contacts that name it. Returns the
 * number of contacts this counted.
 */
export async function finishImportLedgers(channel: ChannelRef, ledgerIds: string[]): Promise<number> {
  if (ledgerIds.length === 0) return 0;
  const items = await batchGetAll(
    ledgerIds.map((id) => keys.contactImportLedger(channel, id)),
    KeyedLedgerItem,
    true,
  );
  let counted = 0;
  for (const item of items) counted += await finishLedger(channel, toLedger(item));
  return counted;
}

/** Every ledger of the channel finished (the recount's first step). Returns the number of contacts this counted. */
export async function finishAllImportLedgers(channel: ChannelRef): Promise<number> {
  const { pk, skPrefix } = keys.contactImportLedgerPrefix(channel);
  const items = await queryAll(pk, skPrefix, KeyedLedgerItem, { consistent: true });
  let counted = 0;
  for (const item of items) counted += await finishLedger(channel, toLedger(item));
  return counted;
}

async function finishLedger(channel: ChannelRef, ledger: ImportLedger): Promise<number> {
  const unclaimed = ledger.phones.filter((phone) => !ledger.counted.has(phone));
  const contacts = unclaimed.length ? await readContacts(channel, unclaimed) : new Map<string, StoredContact>();
  const created = [...contacts.values()].filter((contact) => contact.importedBy === ledger.id);
  await writeIndexEntries(channel, created);
  await writeIdPointers(channel, created);
  const counted = await claimAndCount(
    channel,
    ledger.id,
    created.map((contact) => contact.phone),
  );
  // A finisher deletes only a ledger no live call can own any more.
  if (clock.now() - ledger.startedAt > IMPORT_CALL_MAX_MS) await deleteImportLedger(channel, ledger.id);
  return counted;
}
