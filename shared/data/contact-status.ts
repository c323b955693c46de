import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { queryAll } from './batch';
import { db, tableName, updateIfCondition } from './client';
import type { ContactRecord } from './contacts';
import { keys } from './keys';

/**
 * A contact's opt-out status (`active` or `opted_out`), how it changes, and the
 * records kept beside it:
 * - the status on the contact item, with `statusChangedAt` and `statusSource`: it moves
 *   by time only (a change is applied when it is not older than the last one), so an
 *   inbound STOP and START delivered out of order end in the later one's status;
 * - an audit record per change (`OPTLOG#…`: when, how, by whom or by which message);
 * - the channel's opted-out sets (`OPTOUT#<0..f>`: phone → time), which contacts/list
 *   reads to filter by status without reading contacts only to drop them.
 */

export type ContactStatus = 'active' | 'opted_out';
export type StatusSource = 'keyword' | 'api';

export interface StatusChange {
  status: ContactStatus;
  source: StatusSource;
  /** When it happened (the message's time for a keyword), ms since the epoch. */
  at: number;
  /** The keyword as written (trimmed), for `keyword` changes. */
  keyword?: string;
  /** The inbound message that carried the keyword. */
  chatmid?: string;
  /** The API user that changed it, for `api` changes. */
  userId?: string;
}

export interface StatusChangeRecord extends StatusChange {
  phone: string;
  contactId: string;
  previousStatus: ContactStatus;
}

/**
 * Sets the contact's status unless a later change is already recorded. Returns the
 * contact after the change, or undefined when it was older than the recorded one or
 * the contact does not exist.
 */
export async function setContactStatus(workspaceId: string, channelId: string, phone: string, change: StatusChange): Promise<ContactRecord | undefined> {
  const result = await updateIfCondition(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.contact(workspaceId, channelId, phone),
      UpdateExpression: 'SET #status = :status, statusChangedAt = :at, statusSource = :source',
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(erasing) AND (attribute_not_exists(statusChangedAt) OR statusChangedAt <= :at)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':status': change.status, ':at': change.at, ':source': change.source },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return result?.Attributes as ContactRecord | undefined;
}

/** Writes the audit record of a status change (idempotent per change id). */
export async function recordStatusChange(workspaceId: string, channelId: string, changeId: string, record: StatusChangeRecord): Promise<void> {
  await db.send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.contactStatusChange(workspaceId, channelId, record.phone, record.at, changeId), entity: 'contactStatusChange', changeId, ...record },
    }),
  );
}

/** A contact's status changes, oldest first (audit; erasure). */
export async function listStatusChanges(workspaceId: string, channelId: string, phone: string): Promise<Array<StatusChangeRecord & { pk: string; sk: string }>> {
  const { pk, skPrefix } = keys.contactStatusChangePrefix(workspaceId, channelId, phone);
  return queryAll(pk, skPrefix, { ConsistentRead: true });
}

/** Puts the number into its opted-out set, or takes it out (idempotent). */
export async function markOptedOut(workspaceId: string, channelId: string, phone: string, optedOut: boolean, at: number): Promise<void> {
  await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.optedOutSet(workspaceId, channelId, phone),
      UpdateExpression: optedOut ? 'SET #phone = :at' : 'REMOVE #phone',
      ExpressionAttributeNames: { '#phone': phone },
      ExpressionAttributeValues: optedOut ? { ':at': at } : undefined,
    }),
  );
}

/** Every opted-out number of the channel (one query: 16 small items). */
export async function readOptedOut(workspaceId: string, channelId: string): Promise<Set<string>> {
  const { pk, skPrefix } = keys.optedOutSetPrefix(workspaceId, channelId);
  const items = await queryAll<Record<string, unknown>>(pk, skPrefix);
  const phones = new Set<string>();
  for (const item of items) for (const phone of Object.keys(item)) if (phone !== 'pk' && phone !== 'sk') phones.add(phone);
  return phones;
}
