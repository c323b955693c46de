/**
 * Every entity's keys, composed in one place (see the access-pattern table in
 * docs/ARCHITECTURE.md). Partition keys of tenant data start with the workspace id,
 * so no query can cross tenants by construction; the only other partitions are
 * pointer items (API key hash, phone-number id, chatmid) that name their tenant.
 * The messaging keys are listed in docs/MESSAGING.md.
 * Names compared case-insensitively (labels, custom fields, automations) are filed
 * under their match key (shared/identity.ts).
 */

import { matchKey, type ChannelRef, type Key } from '../identity';

/**
 * Number of compact contact-index buckets per channel. An index entry rewrites its whole
 * bucket item (write units by item size), and an item may not exceed 400 KB: 4096 keeps a
 * bucket at ≈ 0.7 KB at 100k contacts and ≈ 7 KB at 1M (1 and 7 WRU per index write), and
 * a channel far from the item limit (≈ 8M contacts even with every name at the longest
 * indexed prefix in 3-byte characters). Changing it files new entries under other buckets:
 * after a change, run `admin contacts recount --channel CH` for every channel, which
 * rebuilds the index under the current count and deletes the other buckets.
 */
export const CONTACT_INDEX_BUCKETS = 4096;

/** Sort keys between compact-index items (none is an item's key): 4 ranges of hash buckets, 4 of import chunks. */
const CONTACT_INDEX_SPLITS = ['CIDX#4', 'CIDX#8', 'CIDX#c', 'CIDX#ct_', 'CIDX#ct_8', 'CIDX#ct_h', 'CIDX#ct_s'];

const workspacePk = (workspaceId: string) => `WS#${workspaceId}`;
const channelPk = ({ workspaceId, channelId }: ChannelRef) => `WS#${workspaceId}#CH#${channelId}`;

const LABEL_PREFIX = 'DEF#LABEL#';
const FIELD_PREFIX = 'DEF#FIELD#';
const EXECUTION_PREFIX = 'EXEC#';
const HISTORY_PREFIX = 'HIST#';
const OPTED_OUT_PREFIX = 'OPTOUT#';
const RETENTION_PREFIX = 'RETAIN#';

/** A history position: a time key, then a message id. */
const HISTORY_POSITION = /^\d{15}#[A-Za-z0-9_-]+$/;

/** A time (ms) as a fixed-width sort-key part, so keys sort by time. */
const timeKey = (at: number) => String(Math.max(0, Math.trunc(at))).padStart(15, '0');

export const keys = {
  workspace: (workspaceId: string): Key => ({ pk: workspacePk(workspaceId), sk: 'WORKSPACE' }),
  apiUser: (workspaceId: string, userId: string): Key => ({ pk: workspacePk(workspaceId), sk: `USER#${userId}` }),
  /** Pointer item: an API key's SHA-256 hash → its workspace, user and state. */
  apiKeyByHash: (keyHash: string): Key => ({ pk: `APIKEY#${keyHash}`, sk: 'APIKEY' }),
  /** Pointer item: an API key's public id → its hash, so operators can revoke by id. */
  apiKeyById: (keyId: string): Key => ({ pk: `KEYID#${keyId}`, sk: 'KEYID' }),
  /** An API key as its user's key list shows it (name, prefix, dates; never the key or its hash): the portal lists a user's keys with one query. */
  apiUserKey: (workspaceId: string, userId: string, keyId: string): Key => ({ pk: workspacePk(workspaceId), sk: `USERKEY#${userId}#${keyId}` }),
  apiUserKeyPrefix: (workspaceId: string, userId: string) => ({ pk: workspacePk(workspaceId), skPrefix: `USERKEY#${userId}#` }),
  /** An audit record of a portal call that changed a key (who, what, when; never the key). */
  portalAudit: (workspaceId: string, at: number, auditId: string): Key => ({ pk: workspacePk(workspaceId), sk: `PORTALLOG#${timeKey(at)}#${auditId}` }),
  portalAuditPrefix: (workspaceId: string) => ({ pk: workspacePk(workspaceId), skPrefix: 'PORTALLOG#' }),
  channel: ({ workspaceId, channelId }: ChannelRef): Key => ({ pk: workspacePk(workspaceId), sk: `CHANNEL#${channelId}` }),
  channelPrefix: (workspaceId: string) => ({ pk: workspacePk(workspaceId), skPrefix: 'CHANNEL#' }),
  /** Pointer item: a channel id → its workspace (operator commands name only the channel). */
  channelById: (channelId: string): Key => ({ pk: `CHID#${channelId}`, sk: 'CHID' }),
  /** Pointer item: a chat-network phone-number id → its channel (webhooks; uniqueness). */
  channelByPhoneNumberId: (phoneNumberId: string): Key => ({ pk: `PNID#${phoneNumberId}`, sk: 'PNID' }),

  /** The channel's contact head: contact count and definitions version; sorts first among contacts. */
  contactHead: (channel: ChannelRef): Key => ({ pk: channelPk(channel), sk: 'CONTACT#' }),
  contact: (channel: ChannelRef, phone: string): Key => ({ pk: channelPk(channel), sk: `CONTACT#${phone}` }),
  contactPrefix: (channel: ChannelRef) => ({ pk: channelPk(channel), skPrefix: 'CONTACT#' }),
  contactIndexBucket: (channel: ChannelRef, bucket: number): Key => ({
    pk: channelPk(channel),
    sk: `CIDX#${bucket.toString(16).padStart(3, '0')}`,
  }),
  contactIndexPrefix: (channel: ChannelRef) => ({ pk: channelPk(channel), skPrefix: 'CIDX#' }),
  /**
   * The compact index's items from the first at or after `from` on, as sort-key ranges
   * that can be read side by side: split at keys no index item has (between the hash
   * buckets' first hex digits, and between the first random characters of the import
   * chunks' ids), the last range ending at `CIDX$`, just past every `CIDX#…` key.
   */
  contactIndexRanges: (channel: ChannelRef, from = 'CIDX#') => {
    const bounds = [from, ...CONTACT_INDEX_SPLITS.filter((split) => split > from), 'CIDX$'];
    return { pk: channelPk(channel), ranges: bounds.slice(0, -1).map((start, i) => ({ from: start, to: bounds[i + 1] })) };
  },
  /**
   * An import ledger: the phones one contacts/import call is about to create, and those
   * already counted. Written before the contacts, deleted when they are indexed and
   * counted; one left by a crash is finished by the next import that meets its contacts
   * or by the recount (docs/ARCHITECTURE.md, "Consistency without transactions").
   */
  contactImportLedger: (channel: ChannelRef, ledgerId: string): Key => ({ pk: channelPk(channel), sk: `CIMP#${ledgerId}` }),
  contactImportLedgerPrefix: (channel: ChannelRef) => ({ pk: channelPk(channel), skPrefix: 'CIMP#' }),

  label: (channel: ChannelRef, name: string): Key => ({ pk: channelPk(channel), sk: `${LABEL_PREFIX}${matchKey(name)}` }),
  labelPrefix: (channel: ChannelRef) => ({ pk: channelPk(channel), skPrefix: LABEL_PREFIX }),
  customField: (channel: ChannelRef, name: string): Key => ({ pk: channelPk(channel), sk: `${FIELD_PREFIX}${matchKey(name)}` }),
  customFieldPrefix: (channel: ChannelRef) => ({ pk: channelPk(channel), skPrefix: FIELD_PREFIX }),
  /** Labels and custom fields together: what contacts/manage validates against, in one query. */
  definitionsPrefix: (channel: ChannelRef) => ({ pk: channelPk(channel), skPrefix: 'DEF#' }),

  /** A message template of a channel, as last synced from the chat network (exact name, then language). */
  template: (channel: ChannelRef, name: string, language: string): Key => ({
    pk: channelPk(channel),
    sk: `TPL#${name}#${language}`,
  }),
  templatePrefix: (channel: ChannelRef) => ({ pk: channelPk(channel), skPrefix: 'TPL#' }),
  /** Every language of one template name (the `#` ends the name, so `order` never matches `order_update`). */
  templateNamePrefix: (channel: ChannelRef, name: string) => ({ pk: channelPk(channel), skPrefix: `TPL#${name}#` }),

  /** The conversation with one contact (by normalized phone): the 24-hour window lives here. */
  conversation: (channel: ChannelRef, phone: string): Key => ({ pk: channelPk(channel), sk: `CONV#${phone}` }),
  /** The chat network's `wa_id` of a recipient → the contact's phone, so rewritten numbers stay one contact. */
  waId: (channel: ChannelRef, waId: string): Key => ({ pk: channelPk(channel), sk: `WAID#${waId}` }),
  /** An inbound message's media: its fetch state and stored copy, by the chat network's media id. */
  media: (channel: ChannelRef, mediaId: string): Key => ({ pk: channelPk(channel), sk: `MEDIA#${mediaId}` }),
  /** A message of the channel, by our own id: written as intent before the chat network is called. */
  message: (channel: ChannelRef, messageId: string): Key => ({ pk: channelPk(channel), sk: `MSG#${messageId}` }),
  /** An apiReference claim: idempotency key per channel, recipient and reference, valid 24 hours (`expiresAt`). */
  apiReference: (channel: ChannelRef, phone: string, apiReference: string): Key => ({
    pk: channelPk(channel),
    sk: `APIREF#${phone}#${apiReference}`,
  }),
  /**
   * Pointer item: a chat-network message id (chatmid) → its workspace, channel and
   * delivery status. Webhooks and chat/message/status find a message by this one read;
   * the workspace and channel it names are checked before anything is shown.
   */
  messageByChatmid: (chatmid: string): Key => ({ pk: `CHATMID#${chatmid}`, sk: 'CHATMID' }),

  messagePrefix: (channel: ChannelRef) => ({ pk: channelPk(channel), skPrefix: 'MSG#' }),
  /**
   * A contact's conversation-history entry: one per message, sorted by time within the
   * contact (`<phone>#` ends the number, so one number is never a prefix of another's
   * entries), so chat/messages/list reads a page newest first with one query.
   */
  messageHistory: (channel: ChannelRef, phone: string, at: number, messageId: string): Key => ({
    pk: channelPk(channel),
    sk: `${HISTORY_PREFIX}${phone}#${timeKey(at)}#${messageId}`,
  }),
  messageHistoryPrefix: (channel: ChannelRef, phone: string) => ({ pk: channelPk(channel), skPrefix: `${HISTORY_PREFIX}${phone}#` }),
  /**
   * A place in one contact's history, as a cursor carries it: the part of an entry's sort
   * key after the contact's prefix (`<time>#<messageId>`), so a cursor never holds the
   * phone. Undefined for anything that is not one.
   */
  messageHistoryAt: (channel: ChannelRef, phone: string, position: string): Key | undefined =>
    HISTORY_POSITION.test(position) ? { pk: channelPk(channel), sk: `${HISTORY_PREFIX}${phone}#${position}` } : undefined,
  /** Every apiReference claim of one recipient (erasure deletes them: their answers name the number). */
  apiReferencePrefix: (channel: ChannelRef, phone: string) => ({ pk: channelPk(channel), skPrefix: `APIREF#${phone}#` }),
  /** Pointer: a contact id → its phone number (contactId parameters, erasure). Use {@link contactIdPointer}, which also knows grouped ids. */
  contactById: (channel: ChannelRef, contactId: string): Key => ({ pk: channelPk(channel), sk: `CTID#${contactId}` }),
  /** An audit record of a contact's opt-out status change (when, how, by whom); the id makes a repeated webhook overwrite its own record. */
  contactStatusChange: (channel: ChannelRef, phone: string, at: number, changeId: string): Key => ({
    pk: channelPk(channel),
    sk: `OPTLOG#${phone}#${timeKey(at)}#${changeId}`,
  }),
  contactStatusChangePrefix: (channel: ChannelRef, phone: string) => ({ pk: channelPk(channel), skPrefix: `OPTLOG#${phone}#` }),
  /** One of the channel's opted-out sets (16, by the phone's index bucket): attributes `<phone digits>` → change time. */
  optedOutSet: (channel: ChannelRef, phone: string): Key => ({
    pk: channelPk(channel),
    sk: `${OPTED_OUT_PREFIX}${(contactIndexBucketOf(phone) % OPTED_OUT_SETS).toString(16)}`,
  }),
  optedOutSetPrefix: (channel: ChannelRef) => ({ pk: channelPk(channel), skPrefix: OPTED_OUT_PREFIX }),
  /** A number's suppression record (its opt-out, kept through an erasure): a keyed hash of one form of the number, never the number. */
  suppression: (channel: ChannelRef, numberHash: string): Key => ({ pk: channelPk(channel), sk: `SUPPRESS#${numberHash}` }),
  /** That a contact was erased, and when (the deliverer drops its events raised before): a keyed hash of its phone, never the phone. */
  erasureTombstone: (channel: ChannelRef, phoneHash: string): Key => ({ pk: channelPk(channel), sk: `TOMBSTONE#${phoneHash}` }),
  /** The audit record of one erasure: when and by whom, nothing of the contact. */
  erasureAudit: (channel: ChannelRef, at: number, erasureId: string): Key => ({ pk: channelPk(channel), sk: `ERASED#${timeKey(at)}#${erasureId}` }),

  /** An automation of a channel; its steps are copied into each execution when triggered. */
  automation: (channel: ChannelRef, automationId: string): Key => ({ pk: channelPk(channel), sk: `AUTO#${automationId}` }),
  automationPrefix: (channel: ChannelRef) => ({ pk: channelPk(channel), skPrefix: 'AUTO#' }),
  /** Pointer: an automation's lowercased name → its id (case-insensitive lookup in one read; names are unique per channel). */
  automationName: (channel: ChannelRef, name: string): Key => ({ pk: channelPk(channel), sk: `AUTONAME#${matchKey(name)}` }),
  /** One execution of an automation for one contact; while `outboxShard` is set it is in the outbox index. */
  execution: (channel: ChannelRef, executionId: string): Key => ({ pk: channelPk(channel), sk: `${EXECUTION_PREFIX}${executionId}` }),
  /** Every execution of the channel (an erasure finds its contact's among them by `phone`). */
  executionPrefix: (channel: ChannelRef) => ({ pk: channelPk(channel), skPrefix: EXECUTION_PREFIX }),
  /** The channel's integrator webhook subscriptions, all in one item (at most 10): one read serves the list, a lookup by id and the fan-out. */
  webhookSubscriptions: (channel: ChannelRef): Key => ({ pk: channelPk(channel), sk: 'WEBHOOKS' }),
  /** An event of the channel in the events log (events/list); the id starts with its time, so the sort key orders by time. */
  event: (channel: ChannelRef, eventId: string): Key => ({ pk: channelPk(channel), sk: `EVT#${eventId}` }),
  eventPrefix: (channel: ChannelRef) => ({ pk: channelPk(channel), skPrefix: 'EVT#' }),
  /** A part of a large chat-network webhook, handed off for the inbound drain (inbound-batches.ts); it names no tenant until processed. */
  inboundBatch: (batchId: string): Key => ({ pk: `INBOUND#${batchId}`, sk: 'INBOUND' }),
  /** One event's delivery to one subscription (the delivery log, with TTL). */
  eventDelivery: (channel: ChannelRef, webhookId: string, eventId: string): Key => ({ pk: channelPk(channel), sk: `DLV#${webhookId}#${eventId}` }),
  eventDeliveryPrefix: (channel: ChannelRef, webhookId: string) => ({ pk: channelPk(channel), skPrefix: `DLV#${webhookId}#` }),
  /** The delivery lane of one contact to one subscription: its events go out one at a time, oldest first. */
  deliveryLane: (channel: ChannelRef, webhookId: string, contactKey: string): Key => ({
    pk: channelPk(channel),
    sk: `${LANE_PREFIX}${webhookId}#${contactKey}`,
  }),
  deliveryLanePrefix: (channel: ChannelRef, webhookId: string) => ({ pk: channelPk(channel), skPrefix: `${LANE_PREFIX}${webhookId}#` }),
  /** Every delivery and every delivery lane of the channel (erasure finds a contact's among them by `contactKey`). */
  eventDeliveriesPrefix: (channel: ChannelRef) => ({ pk: channelPk(channel), skPrefix: 'DLV#' }),
  deliveryLanesPrefix: (channel: ChannelRef) => ({ pk: channelPk(channel), skPrefix: 'LANE#' }),

  /** A fixed one-minute window of one API user's requests in one rate-limit class. */
  rateLimitWindow: (workspaceId: string, userId: string, rateClass: string, windowStart: number): Key => ({
    pk: `WS#${workspaceId}#RL#${userId}`,
    sk: `${rateClass}#${windowStart}`,
  }),

  channelPartition: channelPk,
};

/** The contact-index bucket a phone number falls in (FNV-1a, stable across releases). */
export function contactIndexBucketOf(phone: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < phone.length; i++) {
    hash ^= phone.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % CONTACT_INDEX_BUCKETS;
}

/** Items holding a channel's opted-out numbers (one query reads them all: ≈ 25 bytes a number, 1 MB a page). */
export const OPTED_OUT_SETS = 16;

/**
 * Shards of the sparse `outbox` index used for message-content expiry
 * (`MESSAGE_CONTENT_RETENTION_DAYS`): `RETAIN#<n>`, beside the executions' `OUTBOX#<n>`.
 */
export const RETENTION_SHARDS = 8;

/** The retention index partition (`outboxShard` value) of shard number `shard`. */
export const retentionShard = (shard: number) => `${RETENTION_PREFIX}${shard}`;

/** Every retention partition of the outbox index, shard 0 first (the sweep reads them in turn). */
export const RETENTION_PARTITIONS: readonly string[] = Array.from({ length: RETENTION_SHARDS }, (_, shard) => retentionShard(shard));

/** The retention shard of a message, spread like the outbox's. */
export function retentionShardOf(messageId: string): string {
  return retentionShard(contactIndexBucketOf(messageId) % RETENTION_SHARDS);
}

const CHANNEL_PK = /^WS#([^#]+)#CH#([^#]+)$/;

/** The channel a channel-partition key names (a retention index entry carries its message's key). */
export function channelOfKey(key: Key): ChannelRef {
  const channel = CHANNEL_PK.exec(key.pk);
  if (!channel) throw new Error(`Not a channel partition key: ${key.pk}`);
  return { workspaceId: channel[1], channelId: channel[2] };
}

/** The opted-out numbers an opted-out set item holds (its attributes other than the key). */
export function optedOutPhones(item: Record<string, unknown>): string[] {
  return Object.keys(item).filter((name) => name !== 'pk' && name !== 'sk');
}

/** Shards of the outbox index (sparse GSI `outbox`: executions whose next step is not yet handed to the queue). */
export const OUTBOX_SHARDS = 8;

/** The outbox index partition (`outboxShard` value) of shard number `shard` (0 … OUTBOX_SHARDS − 1). */
export const outboxShard = (shard: number) => `OUTBOX#${shard}`;

/** Every execution partition of the outbox index, shard 0 first (the automation re-drive reads them in turn). */
export const OUTBOX_PARTITIONS: readonly string[] = Array.from({ length: OUTBOX_SHARDS }, (_, shard) => outboxShard(shard));

/** The outbox shard of an execution, spread so no single index partition is hot. */
export function outboxShardOf(executionId: string): string {
  return outboxShard(contactIndexBucketOf(executionId) % OUTBOX_SHARDS);
}

/** Which definition a key under `definitionsPrefix` holds. */
export function definitionKindOf(key: Key): 'label' | 'customField' | undefined {
  if (key.sk.startsWith(LABEL_PREFIX)) return 'label';
  if (key.sk.startsWith(FIELD_PREFIX)) return 'customField';
  return undefined;
}

/** The execution a table key names (an outbox index entry carries its item's key). */
export function parseExecutionKey(key: Key): { workspaceId: string; channelId: string; executionId: string } {
  if (!key.sk.startsWith(EXECUTION_PREFIX)) throw new Error(`Not an execution key: ${key.pk} ${key.sk}`);
  return { ...channelOfKey(key), executionId: key.sk.slice(EXECUTION_PREFIX.length) };
}

/** What every event-outbox shard name begins with (the automation re-drive reads only `OUTBOX#` shards). */
export const EVENT_OUTBOX_SHARD_PREFIX = 'EVOUTBOX#';

/** The event-outbox index partition of shard number `shard` (0 … OUTBOX_SHARDS − 1). */
export const eventOutboxShard = (shard: number) => `${EVENT_OUTBOX_SHARD_PREFIX}${shard}`;

/** Every event partition of the outbox index, shard 0 first (the event re-drive reads them in turn). */
export const EVENT_OUTBOX_PARTITIONS: readonly string[] = Array.from({ length: OUTBOX_SHARDS }, (_, shard) => eventOutboxShard(shard));

/** The event-outbox shard of a source item (the same sparse GSI `outbox`). */
export function eventOutboxShardOf(sourceKey: Key): string {
  return eventOutboxShard(contactIndexBucketOf(`${sourceKey.pk}|${sourceKey.sk}`) % OUTBOX_SHARDS);
}

/**
 * Shards of the outbox index where delivery lanes with events waiting are filed, by the
 * time someone must have worked them (the lane sweep reads them: shared/domain/event-delivery.ts).
 */
export const EVENT_LANE_SHARD_PREFIX = 'EVLANE#';

/** Every lane partition of the outbox index, shard 0 first. */
export const EVENT_LANE_PARTITIONS: readonly string[] = Array.from({ length: OUTBOX_SHARDS }, (_, shard) => `${EVENT_LANE_SHARD_PREFIX}${shard}`);

/** The lane shard of a delivery lane's key. */
export function eventLaneShardOf(laneKey: Key): string {
  return EVENT_LANE_PARTITIONS[contactIndexBucketOf(`${laneKey.pk}|${laneKey.sk}`) % OUTBOX_SHARDS];
}

const LANE_PREFIX = 'LANE#';

/** The lane a table key names (a lane-shard index entry carries its item's key). */
export function parseDeliveryLaneKey(key: Key): { workspaceId: string; channelId: string; webhookId: string; contactKey: string } {
  if (!key.sk.startsWith(LANE_PREFIX)) throw new Error(`Not a delivery lane key: ${key.pk} ${key.sk}`);
  const rest = key.sk.slice(LANE_PREFIX.length);
  const split = rest.indexOf('#');
  return { ...channelOfKey(key), webhookId: rest.slice(0, split), contactKey: rest.slice(split + 1) };
}

/**
 * Contact ids of bulk creates. A contact created by contacts/manage has a random id
 * (`ct_` + 16 characters of `newId`'s alphabet) and its own pointer item `CTID#<id>`
 * (1 write, ≥ 1 WRU a contact). contacts/import gives the contacts of one call ids of
 * one *group* instead: `ct_<13 random characters>u<2 characters: the row's place in the
 * call>` — `u` is not in `newId`'s alphabet, so no random id looks like one — and
 * writes one pointer item for the whole group, `CTID#ct_<13>u`, attribute `s<2>` →
 * phone (≈ 18 B a contact: one PutItem of ≈ 18 KB for 1,000 contacts, ≈ 0.02 WRU a
 * contact). A lookup by id reads the pointer the id names either way (one GetItem).
 * The group also files the contacts' index entries ({@link contactIndexItemOf}).
 */
const GROUPED_CONTACT_ID = /^(ct_[0-9a-z]{13}u)([0-9a-z]{2})$/;
const ID_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** Contacts one id group can name (two characters of the 32-character alphabet). */
export const CONTACT_ID_GROUP_SIZE = ID_ALPHABET.length ** 2;

/** The group of contact ids a random id (`newId('ct')`) starts: its first 13 random characters. */
export const contactIdGroupOf = (randomId: string): string => `${randomId.slice(0, 'ct_'.length + 13)}u`;

/** The `place`-th contact id (0 … CONTACT_ID_GROUP_SIZE − 1) of an id group. */
export function groupedContactId(group: string, place: number): string {
  if (!Number.isInteger(place) || place < 0 || place >= CONTACT_ID_GROUP_SIZE) throw new RangeError(`No place ${place} in a contact id group`);
  return `${group}${ID_ALPHABET[place >> 5]}${ID_ALPHABET[place & 31]}`;
}

/** Where a contact id's pointer is: the item, and the attribute holding the phone. */
export function contactIdPointer(channel: ChannelRef, contactId: string): { key: Key; attribute: string; grouped: boolean } {
  const grouped = GROUPED_CONTACT_ID.exec(contactId);
  return grouped
    ? { key: { pk: channelPk(channel), sk: `CTID#${grouped[1]}` }, attribute: `s${grouped[2]}`, grouped: true }
    : { key: keys.contactById(channel, contactId), attribute: 'phone', grouped: false };
}

/** The sort-key prefix of import chunks (`CIDX#ct_…`); hash buckets are `CIDX#<3 hex digits>`. */
const INDEX_CHUNK_PREFIX = 'CIDX#ct_';

/**
 * The compact-index item that holds a contact's entry. A contact with a random id: its
 * phone's hash bucket (`CIDX#<000..fff>`). A contact of an id group (contacts/import):
 * its group's index chunk, `CIDX#<its id without the last character>` — the 32 contacts
 * of one call whose places share their first character. So an import writes its new
 * entries as ⌈new/32⌉ items of ≈ 1 KB (≈ 0.05 WRU an entry) instead of one UpdateItem
 * per hash bucket touched (≈ 0.9 of them a row, each costing the whole bucket: ≈ 7 KB at
 * 1M contacts), and a chunk never grows (only its own contacts' renames change it).
 * The place never changes for a contact (its id does not), so its renames and its
 * erasure find the entry; readers read every `CIDX#` item and need not know. A chunk
 * holds its entries packed into one attribute (contact-index.ts).
 */
export function contactIndexItemOf(channel: ChannelRef, contact: { id?: string; phone: string }): Key {
  return contact.id !== undefined && GROUPED_CONTACT_ID.test(contact.id)
    ? { pk: channelPk(channel), sk: `${INDEX_CHUNK_PREFIX}${contact.id.slice('ct_'.length, -1)}` }
    : keys.contactIndexBucket(channel, contactIndexBucketOf(contact.phone));
}

/** True for an import chunk of the compact index (its entries packed: contact-index.ts), false for a hash bucket. */
export const isContactIndexChunk = (key: Key): boolean => key.sk.startsWith(INDEX_CHUNK_PREFIX);

/** Shards of the sparse `outbox` index for handed-off webhook parts (`INBOUND#<n>`), beside the other shards. */
export const INBOUND_SHARDS = 8;

/** Every inbound partition of the outbox index, shard 0 first (the inbound drain reads them all at once). */
export const INBOUND_PARTITIONS: readonly string[] = Array.from({ length: INBOUND_SHARDS }, (_, shard) => `INBOUND#${shard}`);

/** The inbound shard of a handed-off webhook part, spread like the outbox's. */
export function inboundShardOf(batchId: string): string {
  return INBOUND_PARTITIONS[contactIndexBucketOf(batchId) % INBOUND_SHARDS];
}
