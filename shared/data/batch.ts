import { BatchGetCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import type { Key } from './keys';

const BATCH_GET_MAX_KEYS = 100;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Reads items by key with BatchGetItem (100 keys a call), retrying unprocessed keys
 * with backoff. Order of the result is not the order of `itemKeys`.
 */
export async function batchGetAll<T>(itemKeys: Key[], consistent = false): Promise<T[]> {
  const found: T[] = [];
  for (let i = 0; i < itemKeys.length; i += BATCH_GET_MAX_KEYS) {
    let pending: Key[] = itemKeys.slice(i, i + BATCH_GET_MAX_KEYS);
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > 0) await sleep(Math.min(1000, 25 * 2 ** attempt) * Math.random());
      const result = await db.send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending, ConsistentRead: consistent } } }));
      found.push(...((result.Responses?.[tableName()] ?? []) as T[]));
      pending = (result.UnprocessedKeys?.[tableName()]?.Keys ?? []) as Key[];
    }
  }
  return found;
}

/** Queries every item under a sort-key prefix of one partition, following pagination. */
export async function queryAll<T>(pk: string, skPrefix: string, extra: Partial<QueryCommandInput> = {}): Promise<T[]> {
  const items: T[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await db.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
        ExclusiveStartKey: startKey,
        ...extra,
      }),
    );
    items.push(...((result.Items ?? []) as T[]));
    startKey = result.LastEvaluatedKey;
  } while (startKey);
  return items;
}
