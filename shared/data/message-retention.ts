import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, sendIfCondition, tableName, updateIfCondition } from './client';
import { keys, RETENTION_SHARDS, type Key } from './keys';
import type { MessageRecord } from './messages';
import { OUTBOX_INDEX } from './table-schema';

/**
 * Content expiry (`MESSAGE_CONTENT_RETENTION_DAYS`): a message written while retention
 * is on carries `outboxShard = RETAIN#<n>` and `outboxAt` = when its content expires,
 * so the sparse `outbox` index (keys only) lists the due ones without a Scan; the
 * automation re-drive reads only its own `OUTBOX#<n>` shards. Blanking removes the
 * message from the index.
 */

/** Message keys whose content expired before `now`, at most `limitPerShard` from each shard. */
export async function dueForBlanking(now: number, limitPerShard: number): Promise<Key[]> {
  const due: Key[] = [];
  for (let shard = 0; shard < RETENTION_SHARDS; shard++) {
    const { Items = [] } = await db.send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: OUTBOX_INDEX.indexName,
        KeyConditionExpression: '#shard = :shard AND #at <= :now',
        ExpressionAttributeNames: { '#shard': OUTBOX_INDEX.partitionKey, '#at': OUTBOX_INDEX.sortKey },
        ExpressionAttributeValues: { ':shard': `RETAIN#${shard}`, ':now': now },
        Limit: limitPerShard,
      }),
    );
    for (const item of Items) due.push({ pk: String(item.pk), sk: String(item.sk) });
  }
  return due;
}

/**
 * Blanks an expired message's content: the message item, then its history entry and its
 * chatmid pointer, and only then does the item leave the index, so a crash halfway is
 * finished by the next sweep. Returns false when it was already blanked or is gone.
 */
export async function blankExpiredMessage(key: Key, now: number): Promise<boolean> {
  const result = await updateIfCondition(
    new UpdateCommand({
      TableName: tableName(),
      Key: key,
      UpdateExpression: 'SET contentRemovedAt = :now REMOVE content',
      ConditionExpression: 'attribute_exists(outboxShard)',
      ExpressionAttributeValues: { ':now': now },
      ReturnValues: 'ALL_NEW',
    }),
  );
  const message = result?.Attributes as (MessageRecord & Key) | undefined;
  if (!message) return false;
  const [, workspaceId, , channelId] = key.pk.split('#');
  if (typeof message.phone === 'string' && typeof message.at === 'number') {
    await removeContent(keys.messageHistory(workspaceId, channelId, message.phone, message.at, message.id), now);
  }
  if (message.chatmid) await removeContent(keys.messageByChatmid(message.chatmid), now);
  await db.send(new UpdateCommand({ TableName: tableName(), Key: key, UpdateExpression: 'REMOVE outboxShard, outboxAt' }));
  return true;
}

async function removeContent(key: Key, now: number): Promise<void> {
  await sendIfCondition(
    new UpdateCommand({
      TableName: tableName(),
      Key: key,
      UpdateExpression: 'SET contentRemovedAt = :now REMOVE content',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':now': now },
    }),
  );
}
