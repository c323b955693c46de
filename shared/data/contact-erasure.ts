import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { queryAll } from './batch';
import { db, sendIfCondition, tableName, updateIfCondition } from './client';
import type { ContactRecord } from './contacts';
import { contactIndexBucketOf, keys, type Key } from './keys';

/**
 * Contact ids and the erasure of contacts (contacts/delete). The steps are single-item
 * writes in an order that leaves a visible, finishable state after a crash: the
 * contact item is marked `erasing` (and loses its personal fields) first and deleted
 * last, so running the delete again, or `admin contacts recount`, finishes it.
 */

/** Pointer `CTID#<id>` → the contact's phone; written with the contact's index entry (idempotent). */
export async function putContactIdPointer(workspaceId: string, channelId: string, contact: Pick<ContactRecord, 'id' | 'phone'>): Promise<void> {
  await db.send(
    new PutCommand({ TableName: tableName(), Item: { ...keys.contactById(workspaceId, channelId, contact.id), entity: 'contactId', contactId: contact.id, phone: contact.phone } }),
  );
}

/** The phone a contact id names, or undefined (the caller checks the contact item still carries that id). */
export async function phoneOfContactId(workspaceId: string, channelId: string, contactId: string): Promise<string | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.contactById(workspaceId, channelId, contactId), ConsistentRead: true }));
  return Item?.phone as string | undefined;
}

/**
 * Step 1 of an erasure: marks the contact `erasing` and removes its personal fields
 * (name, email, picture, labels, custom field values) at once. Keeps id, phone and
 * wa_id, which the remaining steps need. Returns the contact after the change, or
 * undefined when there is no contact with that phone and id.
 */
export async function beginErasure(workspaceId: string, channelId: string, phone: string, contactId: string, at: number): Promise<ContactRecord | undefined> {
  const result = await updateIfCondition(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.contact(workspaceId, channelId, phone),
      UpdateExpression: 'SET erasing = if_not_exists(erasing, :at) REMOVE #name, email, profilePictureUrl, labelIds, customFields',
      ConditionExpression: 'attribute_exists(pk) AND id = :id',
      ExpressionAttributeNames: { '#name': 'name' },
      ExpressionAttributeValues: { ':at': at, ':id': contactId },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return result?.Attributes as ContactRecord | undefined;
}

/**
 * Takes the contact out of the search index and the count, exactly once: the index
 * entry's removal is idempotent, and only the caller that sets `uncounted` subtracts.
 * A crash between the two leaves the count one too high until `admin contacts recount`.
 */
export async function uncountContact(workspaceId: string, channelId: string, phone: string): Promise<void> {
  await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.contactIndexBucket(workspaceId, channelId, contactIndexBucketOf(phone)),
      UpdateExpression: 'REMOVE #phone',
      ExpressionAttributeNames: { '#phone': phone },
    }),
  );
  const claimed = await sendIfCondition(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.contact(workspaceId, channelId, phone),
      UpdateExpression: 'SET uncounted = :true',
      // A contact still pending was never counted.
      ConditionExpression: 'attribute_exists(erasing) AND attribute_not_exists(uncounted) AND attribute_not_exists(indexPending)',
      ExpressionAttributeValues: { ':true': true },
    }),
  );
  if (!claimed) return;
  await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.contactHead(workspaceId, channelId),
      UpdateExpression: 'ADD contactCount :minusOne',
      ExpressionAttributeValues: { ':minusOne': -1 },
    }),
  );
}

/** Deletes the wa_id map entry when it still points at this phone. */
export async function deleteWaIdMapping(workspaceId: string, channelId: string, waId: string, phone: string): Promise<void> {
  await sendIfCondition(
    new DeleteCommand({
      TableName: tableName(),
      Key: keys.waId(workspaceId, channelId, waId),
      ConditionExpression: 'phone = :phone',
      ExpressionAttributeValues: { ':phone': phone },
    }),
  );
}

/** The keys of every apiReference claim and status-change record of a phone (erasure deletes them). */
export async function recordsOfPhone(workspaceId: string, channelId: string, phone: string): Promise<Key[]> {
  const prefixes = [keys.apiReferencePrefix(workspaceId, channelId, phone), keys.contactStatusChangePrefix(workspaceId, channelId, phone)];
  const found = await Promise.all(prefixes.map(({ pk, skPrefix }) => queryAll<Key>(pk, skPrefix, { ProjectionExpression: 'pk, sk', ConsistentRead: true })));
  return found.flat();
}

/** The last step: deletes the contact item, only while it is marked `erasing`. */
export async function deleteErasedContact(workspaceId: string, channelId: string, phone: string, contactId: string): Promise<void> {
  await sendIfCondition(
    new DeleteCommand({
      TableName: tableName(),
      Key: keys.contact(workspaceId, channelId, phone),
      ConditionExpression: 'attribute_exists(erasing) AND id = :id',
      ExpressionAttributeValues: { ':id': contactId },
    }),
  );
}

/** Contacts a crash left half-erased, and every contact's id (repair: `admin contacts recount`). Reads all contacts. */
export async function contactsForRepair(workspaceId: string, channelId: string): Promise<Array<Pick<ContactRecord, 'id' | 'phone'> & { erasing?: number }>> {
  const { pk, skPrefix } = keys.contactPrefix(workspaceId, channelId);
  const items = await queryAll<Key & Partial<ContactRecord> & { erasing?: number }>(pk, skPrefix, { ProjectionExpression: 'sk, id, phone, erasing', ConsistentRead: true });
  return items.filter((item): item is Key & Pick<ContactRecord, 'id' | 'phone'> & { erasing?: number } => typeof item.phone === 'string' && typeof item.id === 'string');
}
