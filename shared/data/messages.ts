import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { clock } from '../clock';
import { db, sendIfCondition, tableName, updateIfCondition } from './client';
import { pendingEventAttributes, pendingEventFragment, type PendingEvent } from './event-outbox';
import { keys } from './keys';

/**
 * Messages, their chatmid pointers and apiReference claims. No transactions (the
 * local store has none): every step is one conditional single-item write, and each
 * record says what is known, so a crash between two steps leaves a visible state
 * instead of a gap. docs/MESSAGING.md describes the lifecycle.
 */

export type MessageType = 'text' | 'image' | 'video' | 'document' | 'audio' | 'template' | (string & {});

/** What a message carried: text, a media link, or a template with its variables. */
export type MessageContent =
  | { body: string }
  | { url: string; caption?: string; filename?: string }
  | { templateName: string; languageCode: string; bodyVariables: string[]; header?: { type: string; text?: string; link?: string } }
  | Record<string, never>;

export interface MessageError {
  code?: number | string;
  title?: string;
  message: string;
}

/** The send's own progress: intent first, outcome after the chat network answered. */
export type SendState = 'pending' | 'accepted' | 'failed' | 'unknown' | 'received';

/** A message in its channel's partition. */
export interface MessageRecord {
  id: string;
  direction: 'outbound' | 'inbound';
  type: MessageType;
  content: MessageContent;
  /** The contact's phone (digits with country code). */
  phone: string;
  contactId: string;
  conversationId: string;
  apiReference?: string;
  sendState: SendState;
  chatmid?: string;
  waId?: string;
  error?: MessageError;
  /** When the message was written (outbound) or received (inbound), ms since the epoch. */
  at: number;
  createdAt: string;
  updatedAt: string;
}

/** Delivery statuses, forward only; `received` marks inbound messages. */
export type DeliveryStatus = 'accepted' | 'sent' | 'delivered' | 'read' | 'failed' | 'received';

/** The order statuses may move in; `failed` is final and keeps its error. */
export const STATUS_RANK: Record<DeliveryStatus, number> = { accepted: 1, sent: 2, delivered: 3, read: 4, failed: 5, received: 100 };

/** The chatmid pointer: tenant, a copy of what chat/message/status shows, and the delivery status. */
export interface ChatmidRecord {
  chatmid: string;
  workspaceId?: string;
  channelId?: string;
  messageId?: string;
  direction?: 'outbound' | 'inbound';
  type?: MessageType;
  content?: MessageContent;
  phone?: string;
  /** Sent (outbound) or received (inbound), ms since the epoch. */
  at?: number;
  status: DeliveryStatus;
  statusRank: number;
  sentAt?: number;
  deliveredAt?: number;
  readAt?: number;
  failedAt?: number;
  error?: MessageError;
  phoneNumberId?: string;
  /** The send's apiReference, for its status events. */
  apiReference?: string;
  /** Events recorded with a change of this pointer and not yet in the events log (shared/data/event-outbox.ts). */
  pendingEvents?: PendingEvent[];
}

/** Unknown-chatmid status items (sent by other tools, or racing a send) expire after this long unless a send claims them. */
const ORPHAN_TTL_SECONDS = 7 * 24 * 60 * 60;
const epochSeconds = (ms: number) => Math.floor(ms / 1000);

// ---- Messages ------------------------------------------------------------------------

/** Writes an outbound message's intent (state `pending`) before the chat network is called. */
export async function putMessageIntent(workspaceId: string, channelId: string, message: MessageRecord): Promise<void> {
  await db.send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.message(workspaceId, channelId, message.id), entity: 'message', ...message },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

/**
 * Records a send's outcome on its message, moving it out of `from` (pending, or
 * unknown when a webhook settles it). Returns false when it had already moved.
 */
export async function recordSendOutcome(
  workspaceId: string,
  channelId: string,
  messageId: string,
  outcome: { sendState: SendState; chatmid?: string; waId?: string; error?: MessageError },
  from: SendState = 'pending',
): Promise<boolean> {
  const sets = ['sendState = :state', 'updatedAt = :now'];
  const values: Record<string, unknown> = { ':state': outcome.sendState, ':now': clock.nowIso(), ':from': from };
  for (const field of ['chatmid', 'waId', 'error'] as const) {
    if (outcome[field] === undefined) continue;
    sets.push(`${field === 'error' ? '#error' : field} = :${field}`);
    values[`:${field}`] = outcome[field];
  }
  return sendIfCondition(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.message(workspaceId, channelId, messageId),
      UpdateExpression: `SET ${sets.join(', ')}`,
      ConditionExpression: 'sendState = :from',
      ExpressionAttributeNames: outcome.error === undefined ? undefined : { '#error': 'error' },
      ExpressionAttributeValues: values,
    }),
  );
}

export async function getMessage(workspaceId: string, channelId: string, messageId: string): Promise<MessageRecord | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.message(workspaceId, channelId, messageId), ConsistentRead: true }));
  return Item as MessageRecord | undefined;
}

/** Writes an inbound message (its id derives from the chatmid, so a repeated webhook overwrites the same item). */
export async function putInboundMessage(workspaceId: string, channelId: string, message: MessageRecord): Promise<void> {
  await db.send(new PutCommand({ TableName: tableName(), Item: { ...keys.message(workspaceId, channelId, message.id), entity: 'message', ...message } }));
}

// ---- Chatmid pointers ------------------------------------------------------------------

/** The pointer of a chatmid, read consistently: the one read of chat/message/status. */
export async function getChatmidRecord(chatmid: string): Promise<ChatmidRecord | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.messageByChatmid(chatmid), ConsistentRead: true }));
  return Item as ChatmidRecord | undefined;
}

/**
 * Attaches a chatmid to its message: tenant, the channel's phone-number id (statuses
 * apply only when they name it), content, and status `accepted` unless a status
 * webhook got there first (then its later status stays). Safe to repeat; refuses to
 * re-attach a chatmid to another tenant.
 */
export async function attachChatmid(
  record: Required<Pick<ChatmidRecord, 'chatmid' | 'workspaceId' | 'channelId' | 'messageId' | 'direction' | 'type' | 'content' | 'phone' | 'at' | 'phoneNumberId'>> & Pick<ChatmidRecord, 'apiReference'>,
): Promise<void> {
  await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.messageByChatmid(record.chatmid),
      UpdateExpression:
        'SET entity = :entity, chatmid = :chatmid, workspaceId = :ws, channelId = :ch, messageId = :mid, direction = :direction, #type = :type, content = :content, phone = :phone, #at = :at, phoneNumberId = :pnid, ' +
        '#status = if_not_exists(#status, :accepted), statusRank = if_not_exists(statusRank, :acceptedRank), ' +
        // Status events that came before the send attached wait in the outbox without a tenant: due for the re-drive from now.
        `outboxAt = :attachedAt${record.apiReference ? ', apiReference = :apiReference' : ''} REMOVE expiresAt`,
      ConditionExpression: 'attribute_not_exists(workspaceId) OR (workspaceId = :ws AND channelId = :ch)',
      ExpressionAttributeNames: { '#type': 'type', '#at': 'at', '#status': 'status' },
      ExpressionAttributeValues: {
        ':entity': 'chatmid',
        ':chatmid': record.chatmid,
        ':ws': record.workspaceId,
        ':ch': record.channelId,
        ':mid': record.messageId,
        ':direction': record.direction,
        ':type': record.type,
        ':content': record.content,
        ':phone': record.phone,
        ':at': record.at,
        ':pnid': record.phoneNumberId,
        ':accepted': 'accepted',
        ':acceptedRank': STATUS_RANK.accepted,
        ':attachedAt': clock.now(),
        ...(record.apiReference ? { ':apiReference': record.apiReference } : {}),
      },
    }),
  );
}

/** Creates a chatmid pointer (an inbound message, or a status ahead of its send); false when it exists. */
export async function createChatmidRecord(record: ChatmidRecord, event?: PendingEvent): Promise<boolean> {
  const key = keys.messageByChatmid(record.chatmid);
  return sendIfCondition(
    new PutCommand({
      TableName: tableName(),
      Item: { ...key, entity: 'chatmid', ...record, ...(event ? pendingEventAttributes(key, event, clock.now()) : {}) },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

export interface StatusChange {
  chatmid: string;
  status: Exclude<DeliveryStatus, 'accepted' | 'received'>;
  /** When the chat network says it happened, ms since the epoch. */
  timestamp: number;
  error?: MessageError;
  phoneNumberId: string;
}

/** The channel a phone-number id belongs to (the webhook's cached pointer lookup). */
export type PhoneNumberOwner = (phoneNumberId: string) => Promise<{ workspaceId: string; channelId: string } | undefined>;

/** What a status did: moved the pointer (or created it), changed nothing (stale), or named another phone number's message. */
export type StatusResult = { outcome: 'applied'; record: ChatmidRecord } | { outcome: 'stale' } | { outcome: 'mismatch'; record: ChatmidRecord };

/**
 * Applies a status webhook, forward only (accepted → sent → delivered → read;
 * failed is final), and only to a message of the phone number the status names
 * (`metadata.phone_number_id`): one conditional update on both, so repeats, late
 * arrivals and another number's statuses change nothing. A status for a chatmid no
 * send has attached yet creates the pointer (the send attaches to it later).
 *
 * Pointers written before the phone-number id was recorded on them have none: for
 * those the number's channel (`ownerOf`) must be the pointer's, and the update then
 * records the number.
 */
export async function applyStatus(change: StatusChange, ownerOf: PhoneNumberOwner, event?: PendingEvent): Promise<StatusResult> {
  const rank = STATUS_RANK[change.status];
  const names: Record<string, string> = { '#status': 'status' };
  const values: Record<string, unknown> = { ':status': change.status, ':rank': rank, ':t': change.timestamp, ':pnid': change.phoneNumberId };
  const sets = ['#status = :status', 'statusRank = :rank'];
  // The status's event rides in the same conditional write: no event without the change, no change without it.
  const outbox = event && pendingEventFragment(keys.messageByChatmid(change.chatmid), event, clock.now());
  if (outbox) {
    sets.push(...outbox.sets);
    Object.assign(values, outbox.values);
  }
  const stamp = { sent: 'sentAt', delivered: 'deliveredAt', read: 'readAt', failed: 'failedAt' }[change.status];
  sets.push(`${stamp} = if_not_exists(${stamp}, :t)`);
  // Read implies delivered: a message read at once may never get a delivered event.
  if (change.status === 'read') sets.push('deliveredAt = if_not_exists(deliveredAt, :t)');
  if (change.error) {
    names['#error'] = 'error';
    values[':error'] = change.error;
    sets.push('#error = :error');
  }
  const update = (condition: string, extra: { sets?: string[]; values?: Record<string, unknown> } = {}) =>
    updateIfCondition(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.messageByChatmid(change.chatmid),
        UpdateExpression: `SET ${[...sets, ...(extra.sets ?? [])].join(', ')}`,
        ConditionExpression: `attribute_exists(pk) AND statusRank < :rank AND ${condition}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ...values, ...extra.values },
        ReturnValues: 'ALL_NEW',
      }),
    );
  for (;;) {
    const result = await update('phoneNumberId = :pnid');
    if (result) return { outcome: 'applied', record: result.Attributes as ChatmidRecord };
    const existing = await getChatmidRecord(change.chatmid);
    if (existing) {
      if (existing.phoneNumberId === change.phoneNumberId) return { outcome: 'stale' };
      if (existing.phoneNumberId !== undefined || !existing.workspaceId) return { outcome: 'mismatch', record: existing };
      // A pointer from before phone-number ids were recorded: its channel decides.
      const owner = await ownerOf(change.phoneNumberId);
      if (owner?.workspaceId !== existing.workspaceId || owner.channelId !== existing.channelId) return { outcome: 'mismatch', record: existing };
      if (existing.statusRank >= rank) return { outcome: 'stale' };
      const legacy = await update('attribute_not_exists(phoneNumberId) AND workspaceId = :ws AND channelId = :ch', {
        sets: ['phoneNumberId = :pnid'],
        values: { ':ws': owner.workspaceId, ':ch': owner.channelId },
      });
      if (legacy) return { outcome: 'applied', record: legacy.Attributes as ChatmidRecord };
      continue;
    }
    const orphan: ChatmidRecord & { expiresAt: number } = {
      chatmid: change.chatmid,
      status: change.status,
      statusRank: rank,
      [stamp]: change.timestamp,
      ...(change.status === 'read' ? { deliveredAt: change.timestamp } : {}),
      ...(change.error ? { error: change.error } : {}),
      phoneNumberId: change.phoneNumberId,
      expiresAt: epochSeconds(clock.now()) + ORPHAN_TTL_SECONDS,
      ...(event ? pendingEventAttributes(keys.messageByChatmid(change.chatmid), event, clock.now()) : {}),
    };
    if (await createChatmidRecord(orphan)) return { outcome: 'applied', record: orphan };
    // A concurrent writer created it: apply the change to theirs.
  }
}

// ---- apiReference claims ---------------------------------------------------------------

/** What a replay answers: the first answer, or the first failure when its outcome is unknown. */
export interface ReferenceRecord {
  fingerprint: string;
  messageId: string;
  state: 'pending' | 'done' | 'unknown';
  claimedAt: number;
  /** Epoch seconds; compared by the service itself (the local store never expires items). */
  expiresAt: number;
  answer?: Record<string, unknown>;
  failure?: { code: string; message: string; details?: Record<string, unknown> };
  /** Who claimed it: `automation` for the runner's own sends; absent for callers'. */
  owner?: 'automation';
}

/**
 * Claims an apiReference for one send with a single conditional put: it succeeds
 * when no claim exists or the existing one has expired. Returns the existing claim
 * when there is a live one.
 */
export async function claimReference(
  workspaceId: string,
  channelId: string,
  phone: string,
  apiReference: string,
  claim: Pick<ReferenceRecord, 'fingerprint' | 'messageId' | 'owner'>,
  ttlSeconds: number,
): Promise<{ claimed: true } | { claimed: false; existing: ReferenceRecord | undefined }> {
  const now = clock.now();
  const record: ReferenceRecord = { ...claim, state: 'pending', claimedAt: now, expiresAt: epochSeconds(now) + ttlSeconds };
  const key = keys.apiReference(workspaceId, channelId, phone, apiReference);
  const claimed = await sendIfCondition(
    new PutCommand({
      TableName: tableName(),
      Item: { ...key, entity: 'apiReference', apiReference, phone, ...record },
      ConditionExpression: 'attribute_not_exists(pk) OR expiresAt <= :nowSeconds',
      ExpressionAttributeValues: { ':nowSeconds': epochSeconds(now) },
    }),
  );
  if (claimed) return { claimed: true };
  return { claimed: false, existing: await getReference(workspaceId, channelId, phone, apiReference) };
}

export async function getReference(workspaceId: string, channelId: string, phone: string, apiReference: string): Promise<ReferenceRecord | undefined> {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: keys.apiReference(workspaceId, channelId, phone, apiReference), ConsistentRead: true }),
  );
  return Item as ReferenceRecord | undefined;
}

/** Settles our own claim (pending, or unknown when a webhook settles it) with its answer or failure. */
export async function settleReference(
  workspaceId: string,
  channelId: string,
  phone: string,
  apiReference: string,
  messageId: string,
  settlement: Pick<ReferenceRecord, 'state' | 'answer' | 'failure'>,
  from: ReferenceRecord['state'] = 'pending',
): Promise<void> {
  const sets = ['#state = :state'];
  const values: Record<string, unknown> = { ':state': settlement.state, ':mid': messageId, ':from': from };
  const removes: string[] = [];
  for (const field of ['answer', 'failure'] as const) {
    if (settlement[field] === undefined) removes.push(field);
    else {
      sets.push(`${field} = :${field}`);
      values[`:${field}`] = settlement[field];
    }
  }
  await sendIfCondition(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.apiReference(workspaceId, channelId, phone, apiReference),
      UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
      ConditionExpression: 'messageId = :mid AND #state = :from',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: values,
    }),
  );
}

/** Gives our pending claim up (nothing was sent), so the reference can be used again. */
export async function releaseReference(workspaceId: string, channelId: string, phone: string, apiReference: string, messageId: string): Promise<void> {
  await sendIfCondition(
    new DeleteCommand({
      TableName: tableName(),
      Key: keys.apiReference(workspaceId, channelId, phone, apiReference),
      ConditionExpression: 'messageId = :mid AND #state = :pending',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: { ':mid': messageId, ':pending': 'pending' },
    }),
  );
}
