import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { clock } from '../clock';
import { newId } from '../ids';
import { db, sendIfCondition, tableName } from './client';
import { keys } from './keys';

/**
 * Conversations (one per contact and channel) and the `wa_id` → phone map. Every
 * write here is a single-item update that converges under concurrency and repetition:
 * webhooks arrive at least once and out of order.
 */

export interface ConversationRecord {
  id: string;
  contactId: string;
  phone: string;
  createdAt: string;
  /** When the contact last wrote (ms since the epoch): the 24-hour session window starts here. */
  lastInboundAt?: number;
  lastOutboundAt?: number;
  /** Outbound messages whose send outcome is unknown, waiting for a status webhook to settle them. */
  unsettledMessageIds?: Set<string>;
}

/** Reads a conversation (consistent: a just-received inbound message must open the window). */
export async function getConversation(workspaceId: string, channelId: string, phone: string): Promise<ConversationRecord | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.conversation(workspaceId, channelId, phone), ConsistentRead: true }));
  return Item as ConversationRecord | undefined;
}

/**
 * Creates the conversation of a contact unless it exists (the first writer's id
 * wins) and returns it. One atomic update: concurrent callers get the same record.
 */
export async function ensureConversation(
  workspaceId: string,
  channelId: string,
  phone: string,
  contactId: string,
  touch: { outboundAt?: number } = {},
): Promise<ConversationRecord> {
  const sets = ['id = if_not_exists(id, :id)', 'contactId = if_not_exists(contactId, :contactId)', 'phone = :phone', 'createdAt = if_not_exists(createdAt, :now)', 'entity = :entity'];
  const values: Record<string, unknown> = { ':id': newId('cv'), ':contactId': contactId, ':phone': phone, ':now': clock.nowIso(), ':entity': 'conversation' };
  if (touch.outboundAt !== undefined) {
    sets.push('lastOutboundAt = :outboundAt');
    values[':outboundAt'] = touch.outboundAt;
  }
  const result = await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.conversation(workspaceId, channelId, phone),
      UpdateExpression: `SET ${sets.join(', ')}`,
      ExpressionAttributeValues: values,
      ReturnValues: 'ALL_NEW',
    }),
  );
  return result.Attributes as ConversationRecord;
}

/**
 * Records an inbound message's time, forward only: an older or repeated webhook
 * never moves the window back. Returns false when a later (or the same) time was
 * already recorded.
 */
export async function recordInboundAt(workspaceId: string, channelId: string, phone: string, at: number): Promise<boolean> {
  return sendIfCondition(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.conversation(workspaceId, channelId, phone),
      UpdateExpression: 'SET lastInboundAt = :at',
      ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(lastInboundAt) OR lastInboundAt < :at)',
      ExpressionAttributeValues: { ':at': at },
    }),
  );
}

/** Remembers an outbound message whose send outcome is unknown, for a later status webhook to settle. */
export async function addUnsettledMessage(workspaceId: string, channelId: string, phone: string, messageId: string): Promise<void> {
  await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.conversation(workspaceId, channelId, phone),
      UpdateExpression: 'ADD unsettledMessageIds :id',
      ExpressionAttributeValues: { ':id': new Set([messageId]) },
    }),
  );
}

/** Forgets a settled message (idempotent). */
export async function removeUnsettledMessage(workspaceId: string, channelId: string, phone: string, messageId: string): Promise<void> {
  await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.conversation(workspaceId, channelId, phone),
      UpdateExpression: 'DELETE unsettledMessageIds :id',
      ExpressionAttributeValues: { ':id': new Set([messageId]) },
    }),
  );
}

/** The phone a `wa_id` was first seen for in this channel, if any. */
export async function phoneOfWaId(workspaceId: string, channelId: string, waId: string): Promise<string | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.waId(workspaceId, channelId, waId), ConsistentRead: true }));
  return Item?.phone as string | undefined;
}

/**
 * Maps a `wa_id` to a contact's phone unless it is already mapped: the first
 * mapping wins, so a later rewrite can never split or move a contact.
 */
export async function rememberWaId(workspaceId: string, channelId: string, waId: string, phone: string): Promise<void> {
  await sendIfCondition(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.waId(workspaceId, channelId, waId), entity: 'waId', waId, phone },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}
