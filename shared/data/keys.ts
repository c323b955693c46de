/**
 * Every entity's keys, composed in one place (see the access-pattern table in
 * docs/ARCHITECTURE.md). Partition keys of tenant data start with the workspace id,
 * so no query can cross tenants by construction; the only other partitions are
 * pointer items (API key hash, phone-number id, chatmid) that name their tenant.
 * The messaging keys are listed in docs/MESSAGING.md.
 * Match keys (label and field names) are lowercased here and nowhere else.
 */

export interface Key {
  pk: string;
  sk: string;
}

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

const workspacePk = (workspaceId: string) => `WS#${workspaceId}`;
const channelPk = (workspaceId: string, channelId: string) => `WS#${workspaceId}#CH#${channelId}`;

/** Lowercased, trimmed match key for names compared case-insensitively. */
export const matchKey = (name: string) => name.trim().toLowerCase();

export const keys = {
  workspace: (workspaceId: string): Key => ({ pk: workspacePk(workspaceId), sk: 'WORKSPACE' }),
  apiUser: (workspaceId: string, userId: string): Key => ({ pk: workspacePk(workspaceId), sk: `USER#${userId}` }),
  /** Pointer item: an API key's SHA-256 hash → its workspace, user and state. */
  apiKeyByHash: (keyHash: string): Key => ({ pk: `APIKEY#${keyHash}`, sk: 'APIKEY' }),
  /** Pointer item: an API key's public id → its hash, so operators can revoke by id. */
  apiKeyById: (keyId: string): Key => ({ pk: `KEYID#${keyId}`, sk: 'KEYID' }),
  channel: (workspaceId: string, channelId: string): Key => ({ pk: workspacePk(workspaceId), sk: `CHANNEL#${channelId}` }),
  channelPrefix: (workspaceId: string) => ({ pk: workspacePk(workspaceId), skPrefix: 'CHANNEL#' }),
  /** Pointer item: a channel id → its workspace (operator commands name only the channel). */
  channelById: (channelId: string): Key => ({ pk: `CHID#${channelId}`, sk: 'CHID' }),
  /** Pointer item: a chat-network phone-number id → its channel (webhooks; uniqueness). */
  channelByPhoneNumberId: (phoneNumberId: string): Key => ({ pk: `PNID#${phoneNumberId}`, sk: 'PNID' }),

  /** The channel's contact head: contact count and definitions version; sorts first among contacts. */
  contactHead: (workspaceId: string, channelId: string): Key => ({ pk: channelPk(workspaceId, channelId), sk: 'CONTACT#' }),
  contact: (workspaceId: string, channelId: string, phone: string): Key => ({ pk: channelPk(workspaceId, channelId), sk: `CONTACT#${phone}` }),
  contactPrefix: (workspaceId: string, channelId: string) => ({ pk: channelPk(workspaceId, channelId), skPrefix: 'CONTACT#' }),
  contactIndexBucket: (workspaceId: string, channelId: string, bucket: number): Key => ({
    pk: channelPk(workspaceId, channelId),
    sk: `CIDX#${bucket.toString(16).padStart(3, '0')}`,
  }),
  contactIndexPrefix: (workspaceId: string, channelId: string) => ({ pk: channelPk(workspaceId, channelId), skPrefix: 'CIDX#' }),

  label: (workspaceId: string, channelId: string, name: string): Key => ({ pk: channelPk(workspaceId, channelId), sk: `DEF#LABEL#${matchKey(name)}` }),
  labelPrefix: (workspaceId: string, channelId: string) => ({ pk: channelPk(workspaceId, channelId), skPrefix: 'DEF#LABEL#' }),
  customField: (workspaceId: string, channelId: string, name: string): Key => ({ pk: channelPk(workspaceId, channelId), sk: `DEF#FIELD#${matchKey(name)}` }),
  customFieldPrefix: (workspaceId: string, channelId: string) => ({ pk: channelPk(workspaceId, channelId), skPrefix: 'DEF#FIELD#' }),
  /** Labels and custom fields together: what contacts/manage validates against, in one query. */
  definitionsPrefix: (workspaceId: string, channelId: string) => ({ pk: channelPk(workspaceId, channelId), skPrefix: 'DEF#' }),

  /** A message template of a channel, as last synced from the chat network (exact name, then language). */
  template: (workspaceId: string, channelId: string, name: string, language: string): Key => ({
    pk: channelPk(workspaceId, channelId),
    sk: `TPL#${name}#${language}`,
  }),
  templatePrefix: (workspaceId: string, channelId: string) => ({ pk: channelPk(workspaceId, channelId), skPrefix: 'TPL#' }),
  /** Every language of one template name (the `#` ends the name, so `order` never matches `order_update`). */
  templateNamePrefix: (workspaceId: string, channelId: string, name: string) => ({ pk: channelPk(workspaceId, channelId), skPrefix: `TPL#${name}#` }),

  /** The conversation with one contact (by normalized phone): the 24-hour window lives here. */
  conversation: (workspaceId: string, channelId: string, phone: string): Key => ({ pk: channelPk(workspaceId, channelId), sk: `CONV#${phone}` }),
  /** The chat network's `wa_id` of a recipient → the contact's phone, so rewritten numbers stay one contact. */
  waId: (workspaceId: string, channelId: string, waId: string): Key => ({ pk: channelPk(workspaceId, channelId), sk: `WAID#${waId}` }),
  /** A message of the channel, by our own id: written as intent before the chat network is called. */
  message: (workspaceId: string, channelId: string, messageId: string): Key => ({ pk: channelPk(workspaceId, channelId), sk: `MSG#${messageId}` }),
  messagePrefix: (workspaceId: string, channelId: string) => ({ pk: channelPk(workspaceId, channelId), skPrefix: 'MSG#' }),
  /** An apiReference claim: idempotency key per channel, recipient and reference, valid 24 hours (`expiresAt`). */
  apiReference: (workspaceId: string, channelId: string, phone: string, apiReference: string): Key => ({
    pk: channelPk(workspaceId, channelId),
    sk: `APIREF#${phone}#${apiReference}`,
  }),
  /**
   * Pointer item: a chat-network message id (chatmid) → its workspace, channel and
   * delivery status. Webhooks and chat/message/status find a message by this one read;
   * the workspace and channel it names are checked before anything is shown.
   */
  messageByChatmid: (chatmid: string): Key => ({ pk: `CHATMID#${chatmid}`, sk: 'CHATMID' }),

  /**
   * A contact's conversation-history entry: one per message, sorted by time within the
   * contact (`<phone>#` ends the number, so one number is never a prefix of another's
   * entries), so chat/messages/list reads a page newest first with one query.
   */
  messageHistory: (workspaceId: string, channelId: string, phone: string, at: number, messageId: string): Key => ({
    pk: channelPk(workspaceId, channelId),
    sk: `HIST#${phone}#${String(Math.max(0, Math.trunc(at))).padStart(15, '0')}#${messageId}`,
  }),
  messageHistoryPrefix: (workspaceId: string, channelId: string, phone: string) => ({ pk: channelPk(workspaceId, channelId), skPrefix: `HIST#${phone}#` }),
  /** Every apiReference claim of one recipient (erasure deletes them: their answers name the number). */
  apiReferencePrefix: (workspaceId: string, channelId: string, phone: string) => ({ pk: channelPk(workspaceId, channelId), skPrefix: `APIREF#${phone}#` }),
  /** Pointer: a contact id → its phone number (contactId parameters, erasure). */
  contactById: (workspaceId: string, channelId: string, contactId: string): Key => ({ pk: channelPk(workspaceId, channelId), sk: `CTID#${contactId}` }),
  /** An audit record of a contact's opt-out status change (when, how, by whom); the id makes a repeated webhook overwrite its own record. */
  contactStatusChange: (workspaceId: string, channelId: string, phone: string, at: number, changeId: string): Key => ({
    pk: channelPk(workspaceId, channelId),
    sk: `OPTLOG#${phone}#${String(Math.max(0, Math.trunc(at))).padStart(15, '0')}#${changeId}`,
  }),
  contactStatusChangePrefix: (workspaceId: string, channelId: string, phone: string) => ({ pk: channelPk(workspaceId, channelId), skPrefix: `OPTLOG#${phone}#` }),
  /** One of the channel's opted-out sets (16, by the phone's index bucket): attributes `<phone digits>` → change time. */
  optedOutSet: (workspaceId: string, channelId: string, phone: string): Key => ({
    pk: channelPk(workspaceId, channelId),
    sk: `OPTOUT#${(contactIndexBucketOf(phone) % OPTED_OUT_SETS).toString(16)}`,
  }),
  optedOutSetPrefix: (workspaceId: string, channelId: string) => ({ pk: channelPk(workspaceId, channelId), skPrefix: 'OPTOUT#' }),

  /** An automation of a channel; its steps are copied into each execution when triggered. */
  automation: (workspaceId: string, channelId: string, automationId: string): Key => ({ pk: channelPk(workspaceId, channelId), sk: `AUTO#${automationId}` }),
  automationPrefix: (workspaceId: string, channelId: string) => ({ pk: channelPk(workspaceId, channelId), skPrefix: 'AUTO#' }),
  /** Pointer: an automation's lowercased name → its id (case-insensitive lookup in one read; names are unique per channel). */
  automationName: (workspaceId: string, channelId: string, name: string): Key => ({ pk: channelPk(workspaceId, channelId), sk: `AUTONAME#${matchKey(name)}` }),
  /** One execution of an automation for one contact; while `outboxShard` is set it is in the outbox index. */
  execution: (workspaceId: string, channelId: string, executionId: string): Key => ({ pk: channelPk(workspaceId, channelId), sk: `EXEC#${executionId}` }),
  /** Local stack only: the durable queue the local runner reads (SQS stands in AWS), ordered by visibility time. */
  localQueueMessage: (visibleAt: number, messageId: string): Key => ({ pk: 'LOCALQ', sk: `${String(visibleAt).padStart(15, '0')}#${messageId}` }),
  localDeadLetter: (messageId: string): Key => ({ pk: 'LOCALDLQ', sk: messageId }),

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

/** The retention shard of a message (`outboxShard` value), spread like the outbox's. */
export function retentionShardOf(messageId: string): string {
  return `RETAIN#${contactIndexBucketOf(messageId) % RETENTION_SHARDS}`;
}

/** Shards of the outbox index (sparse GSI `outbox`: executions whose next step is not yet handed to the queue). */
export const OUTBOX_SHARDS = 8;

/** The outbox shard of an execution, spread so no single index partition is hot. */
export function outboxShardOf(executionId: string): string {
  return `OUTBOX#${contactIndexBucketOf(executionId) % OUTBOX_SHARDS}`;
}
