import { QueryCommand as RawQueryCommand, type AttributeValue, type QueryCommandOutput } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, BatchWriteCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { db, queryPage, tableName } from './client';
import { ItemKey, parseItems, type ItemSchema, type Stored } from './entity';
import { ExpressionScope, type Condition } from './expressions';
import type { Key } from '../identity';
import { OUTBOX_INDEX } from './table-schema';

const BATCH_GET_MAX_KEYS = 100;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Reads items by key with BatchGetItem (100 keys a call), retrying unprocessed keys
 * with backoff, and parses each with `schema`. Order of the result is not the order of `itemKeys`.
 */
export async function batchGetAll<S extends ItemSchema>(itemKeys: Key[], schema: S, consistent = false): Promise<Stored<S>[]> {
  const found: Record<string, unknown>[] = [];
  for (let i = 0; i < itemKeys.length; i += BATCH_GET_MAX_KEYS) {
    let pending: Key[] = itemKeys.slice(i, i + BATCH_GET_MAX_KEYS);
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > 0) await sleep(Math.min(1000, 25 * 2 ** attempt) * Math.random());
      const result = await db.send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending, ConsistentRead: consistent } } }));
      found.push(...(result.Responses?.[tableName()] ?? []));
      pending = (result.UnprocessedKeys?.[tableName()]?.Keys ?? []) as Key[];
    }
  }
  return parseItems(schema, found);
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
  const filter = options.filter && scope.condition(options.filter);
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

/** Queries every item under a sort-key prefix of one partition, following pagination, each parsed with `schema`. */
export async function queryAll<S extends ItemSchema>(pk: string, skPrefix: string, schema: S, options: QueryOptions = {}): Promise<Stored<S>[]> {
  const input = prefixQuery(pk, skPrefix, options);
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await queryPage({ ...input, ExclusiveStartKey: startKey });
    items.push(...(result.Items ?? []));
    startKey = result.LastEvaluatedKey;
  } while (startKey);
  return parseItems(schema, items);
}

/** A raw (not unmarshalled) item: attribute name → DynamoDB attribute value. */
export type RawItem = Record<string, AttributeValue>;

/** An item whose attributes are all strings, as its attributes' names and values in turn: `[name, value, name, value, …]`. */
export type StringItem = string[];

/**
 * One page (one Query) of the items of one partition whose sort keys lie from `from` to
 * `to` (both included), after `startKey` (a key from an earlier page, in the range), and
 * the key to continue from when there is more (raw, as DynamoDB sends it). For items of
 * many small string attributes (the compact index: one attribute a contact), read
 * without the SDK's deserializer and without an object an item ({@link stringItemsOf}):
 * each item comes as a {@link StringItem}, its key attributes included; an attribute of
 * another type reads as an empty string.
 */
export async function queryRangePageStrings(
  pk: string,
  range: { from: string; to: string },
  startKey?: RawItem,
): Promise<{ items: StringItem[]; next?: RawItem }> {
  const scope = new ExpressionScope();
  const keyCondition = `${scope.path('pk')} = ${scope.value(pk)} AND ${scope.path('sk')} BETWEEN ${scope.value(range.from)} AND ${scope.value(range.to)}`;
  // The values are strings, written here as DynamoDB attribute values (no marshaller on this path).
  const values = Object.fromEntries(Object.entries(scope.attributes().ExpressionAttributeValues ?? {}).map(([name, value]) => [name, { S: String(value) }]));
  const command = new RawQueryCommand({
    TableName: tableName(),
    KeyConditionExpression: keyCondition,
    ExpressionAttributeValues: values,
    ExclusiveStartKey: startKey,
  });
  const result = (await db.send(stringItemsOf(command))) as QueryCommandOutput & StringItemsOutput;
  return { items: result.StringItems ?? (result.Items ?? []).map(toStringItem), next: result.LastEvaluatedKey };
}

/** What {@link stringItemsOf} adds to a Query's output: its items, read from the body as {@link StringItem}s (then `Items` is empty). */
export interface StringItemsOutput {
  StringItems?: StringItem[];
}

const toStringItem = (item: RawItem): StringItem => Object.entries(item).flatMap(([name, value]) => [name, value.S ?? '']);

/**
 * `command` with two middlewares of its own that read a successful response's items
 * straight from its body ({@link takeStringItems}) and hand them over as the output's
 * `StringItems`. Why: an index page of hash buckets (one attribute an entry, named by a
 * phone number no other item shares) makes the SDK's JSON.parse and deserializer build
 * an object of unique names an item, a new hidden class each, then collect them; one
 * sticky regular expression reads the same page for a fraction of that CPU. Measured,
 * with and without it, in docs/PERFORMANCE.md ("The index reader's parser",
 * bench/index-reader.ts): kept for the buckets; for packed import chunks it gains
 * nothing. The rest of the body (Count, LastEvaluatedKey, ConsumedCapacity…) still goes
 * through the SDK's deserializer, and so does every error response (typed errors,
 * retries and their backoff are the client's as for any other call); a body not in the
 * exact shape expected (an attribute not a string, white space) is left to the SDK
 * whole, its `Items` then converted.
 */
function stringItemsOf(command: RawQueryCommand): RawQueryCommand {
  let items: StringItem[] | undefined;
  // Innermost (deserialize step, low): the HTTP response of each attempt, before the SDK's deserializer reads it.
  command.middlewareStack.add(
    (next) => async (args) => {
      const result = await next(args);
      items = undefined;
      const response = result.response as { statusCode?: number; body?: unknown };
      if ((response.statusCode ?? 500) >= 300 || response.body === undefined) return result;
      const body = await bodyBytes(response.body);
      const taken = takeStringItems(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8'));
      items = taken?.items;
      response.body = taken ? Buffer.from(taken.rest) : body;
      return result;
    },
    { step: 'deserialize', priority: 'low', name: 'stringItemsBody' },
  );
  // Outermost of the same step: the deserialized output, given the items taken out above.
  command.middlewareStack.add(
    (next) => async (args) => {
      const result = await next(args);
      if (items) (result.output as StringItemsOutput).StringItems = items;
      return result;
    },
    { step: 'deserialize', priority: 'high', name: 'stringItemsOutput' },
  );
  return command;
}

/** A response body's bytes (a Node.js stream on Lambda and locally; a byte array or string when already read). */
async function bodyBytes(body: unknown): Promise<Uint8Array> {
  if (body instanceof Uint8Array) return body;
  if (typeof body === 'string') return Buffer.from(body);
  const chunks: Uint8Array[] = [];
  for await (const chunk of body as AsyncIterable<Uint8Array | string>) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

const ITEMS_START = '"Items":[';
/** One string attribute of an item, `"name":{"S":"value"}`, at the regular expression's lastIndex exactly (sticky). */
const STRING_ATTRIBUTE = /"((?:[^"\\]|\\.)*)":\{"S":"((?:[^"\\]|\\.)*)"\}/y;
const unescapeJson = (text: string) => (text.includes('\\') ? (JSON.parse(`"${text}"`) as string) : text);

/**
 * A Query response body's items as {@link StringItem}s, and the body without them
 * (`"Items":[]`), or undefined unless every item is exactly a JSON object of string
 * attributes as DynamoDB writes it (no white space). The walk is anchored at every step
 * (the `Items` array, each item's braces and commas, each attribute), so text inside a
 * string can never be taken for structure; `"Items":[` itself can only be the key of
 * the output's items (a quote inside a string is escaped).
 */
export function takeStringItems(text: string): { items: StringItem[]; rest: string } | undefined {
  const start = text.indexOf(ITEMS_START);
  if (start < 0) return undefined;
  const items: StringItem[] = [];
  let at = start + ITEMS_START.length;
  let code = text.charCodeAt(at);
  while (code !== 93 /* ] */) {
    if (code !== 123 /* { */) return undefined;
    const item: StringItem = [];
    at++;
    code = text.charCodeAt(at);
    while (code !== 125 /* } */) {
      STRING_ATTRIBUTE.lastIndex = at;
      const match = STRING_ATTRIBUTE.exec(text);
      if (!match) return undefined;
      item.push(unescapeJson(match[1]), unescapeJson(match[2]));
      at = STRING_ATTRIBUTE.lastIndex;
      code = text.charCodeAt(at);
      if (code === 44 /* , */) code = text.charCodeAt(++at);
      else if (code !== 125) return undefined;
    }
    items.push(item);
    code = text.charCodeAt(++at);
    if (code === 44 /* , */) code = text.charCodeAt(++at);
    else if (code !== 93) return undefined;
  }
  return { items, rest: `${text.slice(0, start)}"Items":[]${text.slice(at + 1)}` };
}

/** One Query page under a sort-key prefix of one partition, from `startKey`: its items parsed with `schema`, and where the next page starts. */
export async function queryPrefixPage<S extends ItemSchema>(
  pk: string,
  skPrefix: string,
  schema: S,
  options: QueryOptions & { startKey?: Record<string, unknown> } = {},
): Promise<{ items: Stored<S>[]; next?: Record<string, unknown> }> {
  const result = await queryPage({ ...prefixQuery(pk, skPrefix, options), ExclusiveStartKey: options.startKey });
  return { items: parseItems(schema, result.Items ?? []), next: result.LastEvaluatedKey };
}

/**
 * The first `limit` items a Query matches (all of them without a limit), raw. DynamoDB
 * ends a Query page at 1 MB whatever its Limit, so this follows LastEvaluatedKey until
 * the limit is reached or the items run out: a page cut short there would lose the
 * items between its end and where the caller's next page starts.
 */
export async function queryUpTo(input: Omit<QueryCommandInput, 'TableName' | 'Limit'>, limit?: number): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let startKey = input.ExclusiveStartKey;
  do {
    const result = await queryPage({ ...input, ...(limit === undefined ? {} : { Limit: limit - items.length }), ExclusiveStartKey: startKey });
    items.push(...(result.Items ?? []));
    startKey = result.LastEvaluatedKey;
  } while (startKey && (limit === undefined || items.length < limit));
  return items;
}

/** The first `options.limit` items under a sort-key prefix of one partition (all of them without a limit), each parsed with `schema` ({@link queryUpTo}). */
export async function queryFirst<S extends ItemSchema>(pk: string, skPrefix: string, schema: S, options: QueryOptions = {}): Promise<Stored<S>[]> {
  return parseItems(schema, await queryUpTo(prefixQuery(pk, skPrefix, options), options.limit));
}

/** One page of a global secondary index (keys only): the keys of one index partition's items with sort key at most `upTo`. */
export async function queryIndexKeysUpTo(
  index: { indexName: string; partitionKey: string; sortKey: string },
  partition: string,
  upTo: number,
  limit: number,
): Promise<Key[]> {
  const scope = new ExpressionScope();
  const keyCondition = `${scope.path(index.partitionKey)} = ${scope.value(partition)} AND ${scope.path(index.sortKey)} <= ${scope.value(upTo)}`;
  const result = await queryPage({ IndexName: index.indexName, KeyConditionExpression: keyCondition, Limit: limit, ...scope.attributes() });
  return parseItems(ItemKey, result.Items).map(({ pk, sk }) => ({ pk, sk }));
}

/**
 * The keys of the items due in the sparse outbox index: one page (up to `limitPerShard`)
 * of each of the shard partitions `shards`, in turn, sort key at most `upTo`.
 */
export async function dueOutboxKeys(shards: readonly string[], upTo: number, limitPerShard: number): Promise<Key[]> {
  const due: Key[] = [];
  for (const shard of shards) {
    due.push(...(await queryIndexKeysUpTo(OUTBOX_INDEX, shard, upTo, limitPerShard)));
  }
  return due;
}

/** An entry of the sparse outbox index: the item's key and when it became due (its sort key). */
export interface OutboxEntry {
  key: Key;
  outboxAt: number;
}

/**
 * One page of a shard partition of the outbox index, oldest first, sort key at most
 * `upTo`, from `startKey` (the previous page's `next`); `next` is undefined after the last page.
 */
export async function dueOutboxPage(
  shard: string,
  upTo: number,
  options: { limit: number; startKey?: Record<string, unknown> },
): Promise<{ entries: OutboxEntry[]; next?: Record<string, unknown> }> {
  const scope = new ExpressionScope();
  const keyCondition = `${scope.path(OUTBOX_INDEX.partitionKey)} = ${scope.value(shard)} AND ${scope.path(OUTBOX_INDEX.sortKey)} <= ${scope.value(upTo)}`;
  const result = await queryPage({
    IndexName: OUTBOX_INDEX.indexName,
    KeyConditionExpression: keyCondition,
    Limit: options.limit,
    ExclusiveStartKey: options.startKey,
    ...scope.attributes(),
  });
  const entries = (result.Items ?? []).map((item) => ({ key: { pk: String(item.pk), sk: String(item.sk) }, outboxAt: Number(item[OUTBOX_INDEX.sortKey]) }));
  return { entries, next: result.LastEvaluatedKey };
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

/** One page (one Query) of one partition's items with sort keys from `from` to `to`, both included, each parsed with `schema`. */
export async function queryRangePage<S extends ItemSchema>(
  pk: string,
  from: string,
  to: string,
  schema: S,
  options: RangeQueryOptions = {},
): Promise<{ items: Stored<S>[]; lastKey?: Record<string, unknown> }> {
  const scope = new ExpressionScope();
  const keyCondition = `${scope.path('pk')} = ${scope.value(pk)} AND ${scope.path('sk')} BETWEEN ${scope.value(from)} AND ${scope.value(to)}`;
  const filter = options.filter && scope.condition(options.filter);
  const result = await queryPage({
    KeyConditionExpression: keyCondition,
    ...(filter ? { FilterExpression: filter } : {}),
    ...(options.consistent ? { ConsistentRead: true } : {}),
    ...(options.limit !== undefined ? { Limit: options.limit } : {}),
    ...(options.reverse ? { ScanIndexForward: false } : {}),
    ...(options.startKey ? { ExclusiveStartKey: options.startKey } : {}),
    ...scope.attributes(),
  });
  return { items: parseItems(schema, result.Items), lastKey: result.LastEvaluatedKey };
}
