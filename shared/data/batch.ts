import { QueryCommand as RawQueryCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, BatchWriteCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { db, queryPage, tableName } from './client';
import { ExpressionScope, type Condition } from './expressions';
import type { Key } from './keys';
import { OUTBOX_INDEX } from './table-schema';

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

export interface QueryOptions {
  /** Strongly consistent read. */
  consistent?: boolean;
  /** Only these top-level attributes (a projection); default whole items. */
  attributes?: readonly string[];
  /** Items to keep (a filter: read units are still spent on the others). */
  filter?: Condition;
  /** Most items one page evaluates. */
  limit?: number;
}

/** The input of a Query under a sort-key prefix of one partition. */
function prefixQuery(pk: string, skPrefix: string, options: QueryOptions): Omit<QueryCommandInput, 'TableName'> {
  const scope = new ExpressionScope();
  const keyCondition = `${scope.path('pk')} = ${scope.value(pk)} AND begins_with(${scope.path('sk')}, ${scope.value(skPrefix)})`;
  const filter = options.filter?.(scope);
  const projection = options.attributes?.map((name) => scope.path(name)).join(', ');
  return {
    KeyConditionExpression: keyCondition,
    ...(filter ? { FilterExpression: filter } : {}),
    ...(projection ? { ProjectionExpression: projection } : {}),
    ...(options.consistent ? { ConsistentRead: true } : {}),
    ...(options.limit !== undefined ? { Limit: options.limit } : {}),
    ...scope.attributes(),
  };
}

/** Queries every item under a sort-key prefix of one partition, following pagination. */
export async function queryAll<T>(pk: string, skPrefix: string, options: QueryOptions = {}): Promise<T[]> {
  const input = prefixQuery(pk, skPrefix, options);
  const items: T[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await queryPage({ ...input, ExclusiveStartKey: startKey });
    items.push(...((result.Items ?? []) as T[]));
    startKey = result.LastEvaluatedKey;
  } while (startKey);
  return items;
}

/** A raw (not unmarshalled) item: attribute name → DynamoDB attribute value. */
export type RawItem = Record<string, AttributeValue>;

/**
 * One page (one Query) of the items of one partition whose sort keys lie from `from` to
 * `to` (both included), after `startKey` (a key from an earlier page, in the range), and
 * the key to continue from when there is more — raw, without the document client's
 * unmarshalling: items and keys as DynamoDB sends them. For reads of many small string
 * attributes (the compact index: one attribute a contact), where unmarshalling each one
 * was ≈ 30 % of the read's time locally.
 */
export async function queryRangePageRaw(pk: string, range: { from: string; to: string }, startKey?: RawItem): Promise<{ items: RawItem[]; next?: RawItem }> {
  const scope = new ExpressionScope();
  const keyCondition = `${scope.path('pk')} = ${scope.value(pk)} AND ${scope.path('sk')} BETWEEN ${scope.value(range.from)} AND ${scope.value(range.to)}`;
  // The values are strings, written here as DynamoDB attribute values (no marshaller on this path).
  const values = Object.fromEntries(Object.entries(scope.attributes().ExpressionAttributeValues ?? {}).map(([name, value]) => [name, { S: String(value) }]));
  const result = await db.send(
    new RawQueryCommand({ TableName: tableName(), KeyConditionExpression: keyCondition, ExpressionAttributeValues: values, ExclusiveStartKey: startKey }),
  );
  return { items: result.Items ?? [], next: result.LastEvaluatedKey };
}

/** The first page (one Query) under a sort-key prefix of one partition: at most `options.limit` items. */
export async function queryFirstPage<T>(pk: string, skPrefix: string, options: QueryOptions = {}): Promise<T[]> {
  return ((await queryPage(prefixQuery(pk, skPrefix, options))).Items ?? []) as T[];
}

/** One page of a global secondary index: items of one index partition with sort key at most `upTo`. */
export async function queryIndexUpTo<T>(
  index: { indexName: string; partitionKey: string; sortKey: string },
  partition: string,
  upTo: number,
  limit: number,
): Promise<T[]> {
  const scope = new ExpressionScope();
  const keyCondition = `${scope.path(index.partitionKey)} = ${scope.value(partition)} AND ${scope.path(index.sortKey)} <= ${scope.value(upTo)}`;
  const result = await queryPage({ IndexName: index.indexName, KeyConditionExpression: keyCondition, Limit: limit, ...scope.attributes() });
  return (result.Items ?? []) as T[];
}

/**
 * The keys of the items due in the sparse outbox index: one page (up to `limitPerShard`)
 * of each of `shardCount` shard partitions (`shardName(n)`), sort key at most `upTo`.
 */
export async function dueOutboxKeys(shardCount: number, shardName: (shard: number) => string, upTo: number, limitPerShard: number): Promise<Key[]> {
  const due: Key[] = [];
  for (let shard = 0; shard < shardCount; shard++) {
    const items = await queryIndexUpTo<Key>(OUTBOX_INDEX, shardName(shard), upTo, limitPerShard);
    for (const item of items) due.push({ pk: String(item.pk), sk: String(item.sk) });
  }
  return due;
}

const BATCH_WRITE_MAX_ITEMS = 25;

/**
 * Writes whole items with BatchWriteItem (25 a call, no conditions), retrying
 * unprocessed items with backoff. Items of one key must not repeat within `items`.
 */
export async function batchPutAll(items: Array<Key & Record<string, unknown>>): Promise<void> {
  for (let i = 0; i < items.length; i += BATCH_WRITE_MAX_ITEMS) {
    let pending = items.slice(i, i + BATCH_WRITE_MAX_ITEMS).map((Item) => ({ PutRequest: { Item } }));
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > 0) await sleep(Math.min(1000, 25 * 2 ** attempt) * Math.random());
      const result = await db.send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
      pending = (result.UnprocessedItems?.[tableName()] ?? []) as typeof pending;
    }
  }
}

export interface RangeQueryOptions extends Omit<QueryOptions, 'attributes'> {
  /** Newest (highest sort key) first. */
  reverse?: boolean;
  /** Where the previous page stopped (its LastEvaluatedKey). */
  startKey?: Record<string, unknown>;
}

/** One page (one Query) of one partition's items with sort keys from `from` to `to`, both included. */
export async function queryRangePage<T>(
  pk: string,
  from: string,
  to: string,
  options: RangeQueryOptions = {},
): Promise<{ items: T[]; lastKey?: Record<string, unknown> }> {
  const scope = new ExpressionScope();
  const keyCondition = `${scope.path('pk')} = ${scope.value(pk)} AND ${scope.path('sk')} BETWEEN ${scope.value(from)} AND ${scope.value(to)}`;
  const filter = options.filter?.(scope);
  const result = await queryPage({
    KeyConditionExpression: keyCondition,
    ...(filter ? { FilterExpression: filter } : {}),
    ...(options.consistent ? { ConsistentRead: true } : {}),
    ...(options.limit !== undefined ? { Limit: options.limit } : {}),
    ...(options.reverse ? { ScanIndexForward: false } : {}),
    ...(options.startKey ? { ExclusiveStartKey: options.startKey } : {}),
    ...scope.attributes(),
  });
  return { items: (result.Items ?? []) as T[], lastKey: result.LastEvaluatedKey };
}
