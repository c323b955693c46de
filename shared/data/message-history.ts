import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { batchGetAll, queryAll } from './batch';
import { db, sendIfCondition, tableName } from './client';
import { keys, type Key } from './keys';
import type { ChatmidRecord, MessageContent, MessageError, MessageRecord, SendState } from './messages';

/**
 * The conversation history: one entry per message beside the message item, in the
 * channel's partition under `HIST#<phone>#<time>#<messageId>`, so one contact's
 * messages come newest first from one query whatever else the channel holds. The
 * entry holds what chat/messages/list shows except the delivery status, which lives
 * on the chatmid pointer (one conditional write per webhook): a page reads it with one
 * BatchGetItem of the page's pointers. docs/MESSAGING.md ("Conversation history").
 */

export interface HistoryEntry {
  messageId: string;
  direction: 'inbound' | 'outbound';
  type: MessageRecord['type'];
  /** Absent once blanked (erasure or retention). */
  content?: MessageContent;
  apiReference?: string;
  chatmid?: string;
  sendState: SendState;
  error?: MessageError;
  /** Sent or received, ms since the epoch. */
  at: number;
  /** When the content was blanked (retention), ms since the epoch. */
  contentRemovedAt?: number;
}

const historyKey = (workspaceId: string, channelId: string, message: Pick<MessageRecord, 'phone' | 'at' | 'id'>): Key =>
  keys.messageHistory(workspaceId, channelId, message.phone, message.at, message.id);

/** Writes a message's history entry (idempotent: a repeated webhook or step writes the same item). */
export async function putHistoryEntry(workspaceId: string, channelId: string, message: MessageRecord): Promise<void> {
  const entry: HistoryEntry = {
    messageId: message.id,
    direction: message.direction,
    type: message.type,
    content: message.content,
    apiReference: message.apiReference,
    chatmid: message.chatmid,
    sendState: message.sendState,
    at: message.at,
  };
  await db.send(new PutCommand({ TableName: tableName(), Item: { ...historyKey(workspaceId, channelId, message), entity: 'history', ...entry } }));
}

/**
 * Writes an inbound message unless it exists (its id derives from the chatmid), and
 * returns the message as stored: a repeated webhook delivery keeps the first one's time,
 * so its history entry and audit record land on the same keys. `extra` are attributes
 * stored beside it (the retention index entry).
 */
export async function putInboundMessageOnce(workspaceId: string, channelId: string, message: MessageRecord, extra: Record<string, unknown> = {}): Promise<MessageRecord> {
  const key = keys.message(workspaceId, channelId, message.id);
  const written = await sendIfCondition(
    new PutCommand({ TableName: tableName(), Item: { ...key, entity: 'message', ...message, ...extra }, ConditionExpression: 'attribute_not_exists(pk)' }),
  );
  if (written) return message;
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
  return (Item as MessageRecord | undefined) ?? message;
}

/**
 * Copies a send's outcome (chatmid, state, error) onto its history entry. Only an
 * existing entry is changed, so an entry erased meanwhile is not brought back.
 */
export async function recordHistoryOutcome(
  workspaceId: string,
  channelId: string,
  message: Pick<MessageRecord, 'phone' | 'at' | 'id'>,
  outcome: { sendState: SendState; chatmid?: string; error?: MessageError },
): Promise<void> {
  const sets = ['sendState = :state'];
  const values: Record<string, unknown> = { ':state': outcome.sendState };
  if (outcome.chatmid !== undefined) {
    sets.push('chatmid = :chatmid');
    values[':chatmid'] = outcome.chatmid;
  }
  if (outcome.error !== undefined) {
    sets.push('#error = :error');
    values[':error'] = outcome.error;
  }
  await sendIfCondition(
    new UpdateCommand({
      TableName: tableName(),
      Key: historyKey(workspaceId, channelId, message),
      UpdateExpression: `SET ${sets.join(', ')}`,
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: outcome.error === undefined ? undefined : { '#error': 'error' },
      ExpressionAttributeValues: values,
    }),
  );
}

export interface HistoryPage {
  entries: HistoryEntry[];
  /** The sort key of the last entry read when more may follow, else undefined. */
  lastSortKey?: string;
}

/**
 * One page of a contact's history, newest first: a single Query with `Limit` = the page + 1, starting
 * after `afterSortKey` (which must lie under the contact's prefix: the caller checks).
 * It reads exactly the page, whatever else the channel or the contact holds.
 */
export async function queryHistoryPage(workspaceId: string, channelId: string, phone: string, limit: number, afterSortKey?: string): Promise<HistoryPage> {
  const { pk, skPrefix } = keys.messageHistoryPrefix(workspaceId, channelId, phone);
  const result = await db.send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
      ScanIndexForward: false,
      // One more than the page: whether another page follows, so the last page says so (nextCursor null).
      Limit: limit + 1,
      ExclusiveStartKey: afterSortKey === undefined ? undefined : { pk, sk: afterSortKey },
    }),
  );
  const items = (result.Items ?? []) as Array<HistoryEntry & Key>;
  const entries = items.slice(0, limit);
  return { entries, lastSortKey: items.length > limit ? entries[entries.length - 1].sk : undefined };
}

/** The chatmid pointers of a page's messages (status and delivery times), by chatmid; one BatchGetItem per 100. */
export async function getChatmidRecords(chatmids: string[]): Promise<Map<string, ChatmidRecord>> {
  const found = await batchGetAll<ChatmidRecord>(chatmids.map((chatmid) => keys.messageByChatmid(chatmid)));
  return new Map(found.map((record) => [record.chatmid, record]));
}

/** Every history entry of a contact (erasure), keys and ids only. */
export async function allHistoryEntries(workspaceId: string, channelId: string, phone: string): Promise<Array<Key & Pick<HistoryEntry, 'messageId' | 'chatmid'>>> {
  const { pk, skPrefix } = keys.messageHistoryPrefix(workspaceId, channelId, phone);
  return queryAll(pk, skPrefix, { ProjectionExpression: 'pk, sk, messageId, chatmid', ConsistentRead: true });
}

export async function deleteItem(key: Key): Promise<void> {
  await db.send(new DeleteCommand({ TableName: tableName(), Key: key }));
}

/**
 * Blanks what a message carried about its contact, keeping its skeleton (type,
 * direction, times, send state and delivery status, for delivery counts): the message
 * item loses content, phone, wa_id and apiReference; its chatmid pointer loses content
 * and phone. Idempotent; an absent item stays absent.
 */
export async function eraseMessageContent(workspaceId: string, channelId: string, messageId: string, chatmid: string | undefined, erasedAt: number): Promise<void> {
  await sendIfCondition(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.message(workspaceId, channelId, messageId),
      UpdateExpression: 'SET erasedAt = :at REMOVE content, phone, waId, apiReference, contactId, conversationId',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':at': erasedAt },
    }),
  );
  if (chatmid !== undefined) await eraseChatmidContent(chatmid, erasedAt);
}

/** Blanks a chatmid pointer's content and phone (erasure); the status stays. */
export async function eraseChatmidContent(chatmid: string, erasedAt: number): Promise<void> {
  await sendIfCondition(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.messageByChatmid(chatmid),
      UpdateExpression: 'SET erasedAt = :at REMOVE content, phone',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':at': erasedAt },
    }),
  );
}

/**
 * Writes the history entry of every message of the channel that has a contact phone
 * and no erasure (repair, `admin contacts recount`): messages stored before history
 * entries existed, and an entry a crash left behind its message (the message item is
 * the source of truth). Reads every message of the channel: an operator's tool.
 */
export async function rebuildHistoryEntries(workspaceId: string, channelId: string): Promise<number> {
  const { pk, skPrefix } = keys.messagePrefix(workspaceId, channelId);
  const messages = await queryAll<MessageRecord & { erasedAt?: number }>(pk, skPrefix, { ConsistentRead: true });
  let written = 0;
  for (const message of messages) {
    if (typeof message.phone !== 'string' || message.erasedAt !== undefined || typeof message.at !== 'number') continue;
    await putHistoryEntry(workspaceId, channelId, message);
    written += 1;
  }
  return written;
}
