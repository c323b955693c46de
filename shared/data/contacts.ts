import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { clock } from '../clock';
import { newId } from '../ids';
import { batchGetAll, queryAll } from './batch';
import { db, sendIfCondition, tableName, updateIfCondition } from './client';
import { putContactIdPointer } from './contact-erasure';
import { contactIndexBucketOf, keys, type Key } from './keys';

/**
 * Contacts of a channel. One item per real phone number (the normalized number is
 * the sort key, so two creates of one number cannot both succeed). Beside the items
 * the channel keeps:
 * - a head item (sk `CONTACT#`, sorting first among contacts) with the contact count
 *   and the definitions version, so page 1 and `total` come from one query;
 * - a compact index: up to 4096 bucket items mapping phone → lowercased name prefix
 *   (~30 bytes a contact), read for searches and deep pages instead of whole contacts.
 */

export type CustomFieldValue = string | number;

export interface ContactRecord {
  id: string;
  phone: string;
  name?: string;
  email?: string;
  profilePictureUrl?: string;
  labelIds: string[];
  customFields: Record<string, CustomFieldValue>;
  /** `opted_out` after an opt-out keyword or contacts/manage `status` (shared/data/contact-status.ts). */
  status: 'active' | 'opted_out';
  /** When and how the status last changed (ms since the epoch; `keyword` or `api`). */
  statusChangedAt?: number;
  statusSource?: 'keyword' | 'api';
  waId?: string;
  createdAt: string;
  updatedAt: string;
  /** Set until the contact is in the index and the count; finished on its next touch. */
  indexPending?: boolean;
  /** Set while contacts/delete erases the contact (ms since the epoch); the contact is then hidden. */
  erasing?: number;
}

export interface ContactChanges {
  name?: string;
  email?: string | null;
  profilePictureUrl?: string | null;
  labelIds?: string[];
  /** Keys to set; a null value removes the key. Keys not named stay as they are. */
  customFields?: Record<string, CustomFieldValue | null>;
  waId?: string;
}

export interface ContactIndexEntry {
  phone: string;
  name: string;
}

/** Characters of a name kept in the index for search. */
const INDEX_NAME_LENGTH = 64;
const indexName = (name: string | undefined) => (name ?? '').toLowerCase().slice(0, INDEX_NAME_LENGTH);

/**
 * Applies `changes` to the contact of `phone`, creating it when there is none and
 * `mayCreate` allows (asked only then, so a caller can defer reads that only a create
 * needs; it may still amend `changes`, which the create and any later update use).
 * Concurrent calls for one number converge on one item: an update first, a
 * conditional create when nothing is there, an update again if a concurrent create
 * won. Each field ends as one of the values written (single-item atomic updates;
 * custom fields merge key by key).
 */
export async function upsertContact(
  workspaceId: string,
  channelId: string,
  phone: string,
  changes: ContactChanges,
  mayCreate: () => boolean | Promise<boolean>,
): Promise<{ contact: ContactRecord; created: boolean } | undefined> {
  for (;;) {
    const updated = await updateContact(workspaceId, channelId, phone, changes);
    if (updated) {
      if (updated.indexPending) await finishIndexing(workspaceId, channelId, updated);
      else if (changes.name !== undefined) await writeIndexEntry(workspaceId, channelId, updated);
      return { contact: updated, created: false };
    }
    if (!(await mayCreate())) return undefined;
    const created = await createContact(workspaceId, channelId, phone, changes);
    if (created) {
      await finishIndexing(workspaceId, channelId, created);
      return { contact: created, created: true };
    }
  }
}

async function createContact(workspaceId: string, channelId: string, phone: string, changes: ContactChanges): Promise<ContactRecord | undefined> {
  const now = clock.nowIso();
  const customFields = Object.fromEntries(Object.entries(changes.customFields ?? {}).filter(([, value]) => value !== null)) as Record<string, CustomFieldValue>;
  const contact: ContactRecord = {
    id: newId('ct'),
    phone,
    name: changes.name,
    email: changes.email ?? undefined,
    profilePictureUrl: changes.profilePictureUrl ?? undefined,
    labelIds: changes.labelIds ?? [],
    customFields,
    status: 'active',
    waId: changes.waId,
    createdAt: now,
    updatedAt: now,
    indexPending: true,
  };
  const created = await sendIfCondition(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.contact(workspaceId, channelId, phone), entity: 'contact', ...contact },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return created ? contact : undefined;
}

async function updateContact(workspaceId: string, channelId: string, phone: string, changes: ContactChanges): Promise<ContactRecord | undefined> {
  const names: Record<string, string> = { '#updatedAt': 'updatedAt' };
  const values: Record<string, unknown> = { ':now': clock.nowIso() };
  const sets = ['#updatedAt = :now'];
  const removes: string[] = [];
  const plain: Array<keyof ContactChanges> = ['name', 'email', 'profilePictureUrl', 'labelIds', 'waId'];
  for (const field of plain) {
    const value = changes[field];
    if (value === undefined) continue;
    names[`#${field}`] = field;
    if (value === null) removes.push(`#${field}`);
    else {
      values[`:${field}`] = value;
      sets.push(`#${field} = :${field}`);
    }
  }
  Object.entries(changes.customFields ?? {}).forEach(([key, value], i) => {
    names['#cf'] = 'customFields';
    names[`#cf${i}`] = key;
    if (value === null) removes.push(`#cf.#cf${i}`);
    else {
      values[`:cf${i}`] = value;
      sets.push(`#cf.#cf${i} = :cf${i}`);
    }
  });
  const result = await updateIfCondition(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.contact(workspaceId, channelId, phone),
      UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ReturnValues: 'ALL_NEW',
    }),
  );
  return result?.Attributes as ContactRecord | undefined;
}

/** Writes the contact's compact index entry (idempotent): attribute `<phone digits>` = `indexName(name)` of its bucket item. */
async function writeIndexEntry(workspaceId: string, channelId: string, contact: Pick<ContactRecord, 'phone' | 'name'>): Promise<void> {
  await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.contactIndexBucket(workspaceId, channelId, contactIndexBucketOf(contact.phone)),
      UpdateExpression: 'SET #phone = :name',
      ExpressionAttributeNames: { '#phone': contact.phone },
      ExpressionAttributeValues: { ':name': indexName(contact.name) },
    }),
  );
}

/**
 * Puts a new contact into the index and the count, exactly once: the index entry is
 * idempotent, and only the caller that clears the pending marker adds to the count.
 * A crash before the marker is cleared is finished by the contact's next touch; a
 * crash between clearing and counting is fixed by `recountContacts` (admin repair).
 */
async function finishIndexing(workspaceId: string, channelId: string, contact: ContactRecord): Promise<void> {
  await writeIndexEntry(workspaceId, channelId, contact);
  await putContactIdPointer(workspaceId, channelId, contact);
  const claimed = await sendIfCondition(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.contact(workspaceId, channelId, contact.phone),
      UpdateExpression: 'REMOVE indexPending',
      ConditionExpression: 'indexPending = :true',
      ExpressionAttributeValues: { ':true': true },
    }),
  );
  if (!claimed) return;
  await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.contactHead(workspaceId, channelId),
      UpdateExpression: 'ADD contactCount :one',
      ExpressionAttributeValues: { ':one': 1 },
    }),
  );
}

export interface ContactHead {
  contactCount: number;
  defsVersion: number;
}

/** Page 1 in one query: the head item (count, definitions version) then the first `limit` contacts by phone. */
export async function firstContactPage(workspaceId: string, channelId: string, limit: number): Promise<{ head: ContactHead; contacts: ContactRecord[] }> {
  const head = keys.contactHead(workspaceId, channelId);
  const result = await db.send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': head.pk, ':prefix': head.sk },
      Limit: limit + 1,
    }),
  );
  const items = (result.Items ?? []) as Array<Key & ContactRecord & Partial<ContactHead>>;
  const headItem = items[0]?.sk === head.sk ? items.shift() : undefined;
  return {
    head: { contactCount: Number(headItem?.contactCount ?? 0), defsVersion: Number(headItem?.defsVersion ?? 0) },
    contacts: items.slice(0, limit),
  };
}

/** The channel's whole compact index, sorted by phone (≤ ~100 bytes a contact). */
export async function readContactIndex(workspaceId: string, channelId: string): Promise<ContactIndexEntry[]> {
  const { pk, skPrefix } = keys.contactIndexPrefix(workspaceId, channelId);
  const buckets = await queryAll<Record<string, string>>(pk, skPrefix);
  const entries: ContactIndexEntry[] = [];
  for (const bucket of buckets) {
    for (const [phone, name] of Object.entries(bucket)) if (phone !== 'pk' && phone !== 'sk') entries.push({ phone, name });
  }
  return entries.sort((a, b) => (a.phone < b.phone ? -1 : a.phone > b.phone ? 1 : 0));
}

/** Reads the contacts with these phone numbers, in the given order (one BatchGet per 100). */
export async function getContactsByPhone(workspaceId: string, channelId: string, phones: string[]): Promise<ContactRecord[]> {
  const found = await batchGetAll<ContactRecord>(phones.map((phone) => keys.contact(workspaceId, channelId, phone)));
  const byPhone = new Map(found.map((contact) => [contact.phone, contact]));
  return phones.map((phone) => byPhone.get(phone)).filter((contact): contact is ContactRecord => contact !== undefined);
}

/**
 * Repair (`admin contacts recount`): first finishes every contact a crash left
 * `indexPending` (its index entry and marker, as its next touch would), then rebuilds
 * the compact index from the contact items (`rebuildContactIndex`), then sets the
 * contact count from the rebuilt index, and the label and custom-field counts of the
 * head item from the definitions themselves (a crash between taking a place and
 * writing the definition leaves one counted too many). Reads the channel's contacts
 * (twice, for the rebuild), so it is an operator's tool, not a request path.
 */
export async function recountContacts(workspaceId: string, channelId: string): Promise<number> {
  const { pk, skPrefix } = keys.contactPrefix(workspaceId, channelId);
  const pending = await queryAll<ContactRecord>(pk, skPrefix, {
    FilterExpression: 'indexPending = :true',
    ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix, ':true': true },
    ConsistentRead: true,
  });
  // finishIndexing's own count update is overwritten by the recount below.
  for (const contact of pending) await finishIndexing(workspaceId, channelId, contact);
  const { indexed: count } = await rebuildContactIndex(workspaceId, channelId);
  const [labels, fields] = await Promise.all(
    [keys.labelPrefix(workspaceId, channelId), keys.customFieldPrefix(workspaceId, channelId)].map(
      async (prefix) => (await queryAll<Key>(prefix.pk, prefix.skPrefix, { ProjectionExpression: 'pk', ConsistentRead: true })).length,
    ),
  );
  await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.contactHead(workspaceId, channelId),
      UpdateExpression: 'SET contactCount = :count, labelCount = :labels, fieldCount = :fields',
      ExpressionAttributeValues: { ':count': count, ':labels': labels, ':fields': fields },
    }),
  );
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

/**
 * Rebuilds the channel's compact index from its contact items (part of the recount
 * repair). One paginated, consistent Query of the contacts (`CONTACT#`, only phone and
 * name) gives every bucket's complete map, filed by `contactIndexBucketOf` under the
 * current `CONTACT_INDEX_BUCKETS`, each entry as `writeIndexEntry` stores it (phone
 * digits → `indexName`). Each bucket that differs from what the Query of `CIDX#` found
 * is then written whole (PutItem of its complete map), and every index item that is not
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
 * The whole index is held in memory (≈ 100 B a contact in the process).
 */
export async function rebuildContactIndex(workspaceId: string, channelId: string): Promise<IndexRebuild> {
  const readContacts = async () => {
    const { pk, skPrefix } = keys.contactPrefix(workspaceId, channelId);
    const items = await queryAll<Key & Partial<Pick<ContactRecord, 'phone' | 'name' | 'erasing'>>>(pk, skPrefix, {
      ProjectionExpression: 'sk, phone, #name, erasing',
      ExpressionAttributeNames: { '#name': 'name' },
      ConsistentRead: true,
    });
    // The head item (sk `CONTACT#`) shares the prefix and has no phone; a contact being erased is already out of the index.
    return items.filter((item): item is Key & Pick<ContactRecord, 'phone' | 'name'> => item.sk !== skPrefix && typeof item.phone === 'string' && item.erasing === undefined);
  };
  // phone → the entry as writeIndexEntry stores it
  const entries = new Map((await readContacts()).map((contact) => [contact.phone, indexName(contact.name)]));
  const buckets = new Map<string, Record<string, string>>();
  for (const [phone, name] of entries) {
    const { sk } = keys.contactIndexBucket(workspaceId, channelId, contactIndexBucketOf(phone));
    const bucket = buckets.get(sk) ?? {};
    bucket[phone] = name;
    buckets.set(sk, bucket);
  }
  const { pk, skPrefix } = keys.contactIndexPrefix(workspaceId, channelId);
  const existing = new Map<string, Record<string, string>>();
  for (const item of await queryAll<Record<string, string>>(pk, skPrefix, { ConsistentRead: true })) {
    const bucket = { ...item };
    delete bucket.pk;
    delete bucket.sk;
    existing.set(item.sk, bucket);
  }
  const changed = [...buckets].filter(([sk, bucket]) => !sameEntries(existing.get(sk), bucket));
  await inBatches(changed, ([sk, bucket]) => db.send(new PutCommand({ TableName: tableName(), Item: { ...bucket, pk, sk } })));
  const stale = [...existing.keys()].filter((sk) => !buckets.has(sk));
  await inBatches(stale, (sk) => db.send(new DeleteCommand({ TableName: tableName(), Key: { pk, sk } })));
  // Contacts created or renamed meanwhile: their own entry may have been overwritten above.
  const current = await readContacts();
  const moved = current.filter((contact) => entries.get(contact.phone) !== indexName(contact.name));
  await inBatches(moved, (contact) => writeIndexEntry(workspaceId, channelId, contact));
  return { contacts: entries.size, bucketsWritten: changed.length, bucketsDeleted: stale.length, entriesReapplied: moved.length, indexed: current.length };
}

function sameEntries(found: Record<string, string> | undefined, rebuilt: Record<string, string>): boolean {
  if (!found) return false;
  const phones = Object.keys(found);
  return phones.length === Object.keys(rebuilt).length && phones.every((phone) => found[phone] === rebuilt[phone]);
}

async function inBatches<T>(items: T[], write: (item: T) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += REBUILD_CONCURRENCY) await Promise.all(items.slice(i, i + REBUILD_CONCURRENCY).map(write));
}

/** Reads one contact by phone (consistent), or undefined. */
export async function getContact(workspaceId: string, channelId: string, phone: string): Promise<ContactRecord | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.contact(workspaceId, channelId, phone), ConsistentRead: true }));
  return Item as ContactRecord | undefined;
}
