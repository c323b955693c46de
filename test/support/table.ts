import {
  BatchGetItemCommand,
  DynamoDBClient,
  paginateQuery,
  paginateScan,
  type AttributeValue,
  type QueryCommandInput,
  type ScanCommandInput,
} from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import * as v from 'valibot';
import { keys } from '../../shared/data/keys';
import type { ChannelRef, Key } from '../../shared/identity';

/**
 * Test-only table readers: whole-table Scans (never used by the service), raw
 * snapshots for byte-for-byte comparisons, and a client for any endpoint (the
 * shared test store, a private one, or a local stack's store).
 */

export interface TableTarget {
  /** DynamoDB-compatible endpoint; default DYNAMODB_ENDPOINT. */
  endpoint?: string;
  /** Default TABLE_NAME, else the local table name. */
  tableName?: string;
}

export type RawItem = Record<string, AttributeValue>;

/** What a test reads when it looks at an item as stored, whatever its entity (the data layer's reads take a schema). */
export const AnyItem = v.record(v.string(), v.unknown());
export type TableItem = Record<string, any> & { pk: string; sk: string };

const clients = new Map<string, DynamoDBClient>();

function clientFor(endpoint: string): DynamoDBClient {
  let client = clients.get(endpoint);
  if (!client) {
    client = new DynamoDBClient({ endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, maxAttempts: 6 });
    clients.set(endpoint, client);
  }
  return client;
}

function resolveTarget(target: TableTarget = {}): { client: DynamoDBClient; tableName: string } {
  const endpoint = target.endpoint ?? process.env.DYNAMODB_ENDPOINT;
  if (!endpoint) throw new Error('No DynamoDB endpoint: pass one or set DYNAMODB_ENDPOINT');
  return { client: clientFor(endpoint), tableName: target.tableName ?? process.env.TABLE_NAME ?? 'workspace-api' };
}

/** Items of one workspace: its partitions (`WS#<ws>…`) and pointer items that name it (`workspaceId`). */
export function workspaceFilter(workspaceId: string): Pick<ScanCommandInput, 'FilterExpression' | 'ExpressionAttributeValues'> {
  return {
    FilterExpression: 'pk = :ws OR begins_with(pk, :wsPrefix) OR workspaceId = :id',
    ExpressionAttributeValues: { ':ws': { S: `WS#${workspaceId}` }, ':wsPrefix': { S: `WS#${workspaceId}#` }, ':id': { S: workspaceId } },
  };
}

/** Every raw item of the table (optionally filtered), following pagination. */
export async function scanRaw(
  target: TableTarget = {},
  filter: Pick<ScanCommandInput, 'FilterExpression' | 'ExpressionAttributeValues'> = {},
): Promise<RawItem[]> {
  const { client, tableName } = resolveTarget(target);
  const items: RawItem[] = [];
  for await (const page of paginateScan({ client }, { TableName: tableName, ConsistentRead: true, ...filter })) items.push(...(page.Items ?? []));
  return items;
}

/** Every item of the table (optionally of one workspace), unmarshalled. */
export async function scanItems(target: TableTarget = {}, workspaceId?: string): Promise<TableItem[]> {
  const raw = await scanRaw(target, workspaceId ? workspaceFilter(workspaceId) : {});
  return raw.map((item) => unmarshall(item) as TableItem);
}

/** Every raw item a Query matches (consistent), following pagination. */
async function queryRaw(target: TableTarget, input: Omit<QueryCommandInput, 'TableName' | 'ConsistentRead' | 'ExclusiveStartKey'>): Promise<RawItem[]> {
  const { client, tableName } = resolveTarget(target);
  const items: RawItem[] = [];
  for await (const page of paginateQuery({ client }, { TableName: tableName, ConsistentRead: true, ...input })) items.push(...(page.Items ?? []));
  return items;
}

/** Every item of one partition, unmarshalled: a Query, whatever else the table holds. */
export async function queryPartition(target: TableTarget, pk: string): Promise<TableItem[]> {
  const raw = await queryRaw(target, { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': { S: pk } } });
  return raw.map((item) => unmarshall(item) as TableItem);
}

/** The channels of a workspace, from its own partition's channel items (`keys.channel`). */
export function channelsOf(workspaceId: string, workspaceItems: TableItem[]): ChannelRef[] {
  const { skPrefix } = keys.channelPrefix(workspaceId);
  return workspaceItems.filter((item) => item.sk.startsWith(skPrefix)).map((item) => ({ workspaceId, channelId: item.sk.slice(skPrefix.length) }));
}

/**
 * A workspace's data read by Query, not Scan, so the read costs the same however full
 * the shared test store is: its own partition, its channels' partitions (or only
 * `channelId`'s), and any pointer items named in `pointers` (consistent Gets). Not read:
 * its rate-limit windows and pointer items not named (API key, channel and phone-number
 * pointers) — a test that means "anywhere in the table" scans instead ({@link scanItems}).
 */
export async function workspaceItems(target: TableTarget, workspaceId: string, options: { channelId?: string; pointers?: Key[] } = {}): Promise<TableItem[]> {
  const own = await queryPartition(target, keys.workspace(workspaceId).pk);
  const channels = channelsOf(workspaceId, own).filter((channel) => options.channelId === undefined || channel.channelId === options.channelId);
  const partitions = await Promise.all(channels.map((channel) => queryPartition(target, keys.channelPartition(channel))));
  return [...own, ...partitions.flat(), ...(await getItems(target, options.pointers ?? []))];
}

/** The items of `itemKeys` that exist (BatchGetItem, consistent, in pieces of 100). */
async function getItems(target: TableTarget, itemKeys: Key[]): Promise<TableItem[]> {
  const { client, tableName } = resolveTarget(target);
  const items: TableItem[] = [];
  for (let start = 0; start < itemKeys.length; start += 100) {
    let request: Record<string, { Keys: RawItem[]; ConsistentRead: boolean }> | undefined = {
      [tableName]: { Keys: itemKeys.slice(start, start + 100).map((key) => marshall({ pk: key.pk, sk: key.sk })), ConsistentRead: true },
    };
    while (request && Object.keys(request).length) {
      const answer = await client.send(new BatchGetItemCommand({ RequestItems: request }));
      items.push(...(answer.Responses?.[tableName] ?? []).map((item) => unmarshall(item) as TableItem));
      request = answer.UnprocessedKeys as typeof request;
    }
  }
  return items;
}

/**
 * How many items of partition `pk` have a sort key starting with `skPrefix` (other than
 * `skPrefix` itself): a Query of that one partition reading the sort keys alone, for a
 * test that waits on rows committed without scanning the table.
 */
export async function countItems(target: TableTarget, pk: string, skPrefix: string): Promise<number> {
  const raw = await queryRaw(target, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ProjectionExpression: 'sk',
    ExpressionAttributeValues: { ':pk': { S: pk }, ':prefix': { S: skPrefix } },
  });
  return raw.filter((item) => item.sk?.S !== skPrefix).length;
}

/** Rate-limit windows are the one thing a refused request may change. */
export const isRateLimitItem = (item: RawItem) => (item.pk?.S ?? '').includes('#RL#');

/** Canonical JSON of raw attribute values (sorted keys, sets sorted), so equal tables give equal text. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value instanceof Uint8Array) return { $bytes: Buffer.from(value).toString('base64') };
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries.map(([key, inner]) => [key, key === 'SS' || key === 'NS' ? [...(inner as string[])].sort() : canonical(inner)]));
  }
  return value;
}

export interface TableSnapshot {
  /** One canonical JSON line per item, sorted by key. */
  lines: string[];
  items: number;
}

/**
 * A byte-for-byte snapshot of the table (or one workspace's items), leaving out
 * rate-limit windows and anything `exclude` names.
 */
export async function snapshotTable(
  target: TableTarget = {},
  options: { workspaceId?: string; exclude?: (item: RawItem) => boolean } = {},
): Promise<TableSnapshot> {
  const raw = await scanRaw(target, options.workspaceId ? workspaceFilter(options.workspaceId) : {});
  const lines = raw
    .filter((item) => !isRateLimitItem(item) && !options.exclude?.(item))
    .map((item) => JSON.stringify(canonical(item)))
    .sort();
  return { lines, items: lines.length };
}

/** What changed between two snapshots (for a readable assertion message). */
export function snapshotDiff(before: TableSnapshot, after: TableSnapshot): { added: string[]; removed: string[] } {
  const old = new Set(before.lines);
  const now = new Set(after.lines);
  return { added: after.lines.filter((line) => !old.has(line)), removed: before.lines.filter((line) => !now.has(line)) };
}
