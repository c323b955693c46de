import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Counts DynamoDB calls made through a client (the shared document client `db`) with
 * SDK middleware, as round trips: one per logical call (retries happen below it).
 * Optionally asks DynamoDB for ReturnConsumedCapacity=TOTAL and records it, and always
 * records the items returned and their size in DynamoDB's item-size rules.
 */

export interface DbCall {
  /** Low-level command name: QueryCommand, GetItemCommand, UpdateItemCommand… */
  command: string;
  /** Capacity units DynamoDB reported (ReturnConsumedCapacity=TOTAL), if any. */
  capacity?: number;
  /** Items (or the returned Attributes) the call brought back. */
  items: number;
  /** Their size by DynamoDB's item-size rules (attribute names + values). */
  itemBytes: number;
  /** The sort-key prefix or key the call read, for the report (`CIDX#`, `CONTACT#`…). */
  target?: string;
  consistent: boolean;
}

export interface CallCounter {
  readonly calls: DbCall[];
  /** Counting is on only between start() and stop() (e.g. around one handler call). */
  start(): void;
  stop(): DbCall[];
  /**
   * Counts only the calls `work` makes (its async context), not those other work in
   * the process makes meanwhile, e.g. a status webhook the sandbox chat network
   * delivers while a send is still recording its outcome. Returns the calls.
   */
  count(work: () => Promise<unknown>): Promise<DbCall[]>;
  reset(): void;
  remove(): void;
}

const READS = new Set(['GetItemCommand', 'BatchGetItemCommand', 'QueryCommand', 'ScanCommand', 'TransactGetItemsCommand']);
export const isRead = (command: string) => READS.has(command);

/**
 * Size of one attribute value by DynamoDB's item-size rules, for values as the document
 * client returns them (strings UTF-8 bytes, numbers ~1 byte per 2 digits + 1, lists and
 * maps 3 bytes + 1 per element).
 */
export function valueSize(value: unknown): number {
  if (value === null || value === undefined || typeof value === 'boolean') return 1;
  if (typeof value === 'string') return Buffer.byteLength(value);
  if (typeof value === 'number' || typeof value === 'bigint') return Math.ceil(String(value).replace(/^-|\.|^0+|e.*$/g, '').length / 2) + 1;
  if (value instanceof Uint8Array) return value.byteLength;
  if (value instanceof Set) return [...value].reduce((total: number, member) => total + valueSize(member), 0);
  if (Array.isArray(value)) return 3 + value.reduce((total: number, element) => total + 1 + valueSize(element), 0);
  if (typeof value === 'object') {
    const raw = rawValue(value as Record<string, unknown>);
    if (raw !== undefined) return valueSize(raw);
    return 3 + Object.keys(value).length + itemSize(value as Record<string, unknown>);
  }
  return 0;
}

const RAW_TYPES = new Set(['S', 'N', 'B', 'SS', 'NS', 'BS', 'M', 'L', 'NULL', 'BOOL']);

/** The value a raw DynamoDB attribute value (`{ S: 'x' }`, from a read that skips the document client) stands for, else undefined. */
function rawValue(value: Record<string, unknown>): unknown {
  const types = Object.keys(value);
  if (types.length !== 1 || !RAW_TYPES.has(types[0])) return undefined;
  const [type] = types;
  const inner = value[type];
  if (type === 'N') return Number(inner);
  if (type === 'SS' || type === 'NS' || type === 'BS') return new Set(inner as unknown[]);
  if (type === 'L') return (inner as Array<Record<string, unknown>>).map(rawValue);
  if (type === 'M')
    return Object.fromEntries(Object.entries(inner as Record<string, Record<string, unknown>>).map(([name, member]) => [name, rawValue(member)]));
  if (type === 'NULL') return null;
  return inner;
}

export function itemSize(item: Record<string, unknown>): number {
  let size = 0;
  for (const [name, value] of Object.entries(item)) size += Buffer.byteLength(name) + valueSize(value);
  return size;
}

type Item = Record<string, unknown>;

function returnedItems(output: Record<string, unknown>): Item[] {
  if (Array.isArray(output.Items)) return output.Items as Item[];
  if (output.Item) return [output.Item as Item];
  if (output.Attributes) return [output.Attributes as Item];
  if (output.Responses && !Array.isArray(output.Responses)) return Object.values(output.Responses as Record<string, Item[]>).flat();
  return [];
}

function capacityOf(output: Record<string, unknown>): number | undefined {
  const consumed = output.ConsumedCapacity as { CapacityUnits?: number } | Array<{ CapacityUnits?: number }> | undefined;
  if (!consumed) return undefined;
  return (Array.isArray(consumed) ? consumed : [consumed]).reduce((total, entry) => total + (entry.CapacityUnits ?? 0), 0);
}

function targetOf(input: Record<string, unknown>): string | undefined {
  const values = input.ExpressionAttributeValues as Record<string, unknown> | undefined;
  if (typeof input.KeyConditionExpression === 'string') {
    const prefix = /begins_with\(\s*sk\s*,\s*(:\w+)\s*\)/.exec(input.KeyConditionExpression)?.[1];
    const value = prefix ? values?.[prefix] : undefined;
    if (value !== undefined) return String(value);
    // A sort-key range (the compact index read as side-by-side ranges): named by its start's first part, `CIDX#`.
    const from = /\bsk\s+BETWEEN\s+(:\w+)/.exec(input.KeyConditionExpression)?.[1];
    const given = from ? values?.[from] : undefined;
    // A raw read (no document client on its path) gives its values as `{ S: … }`.
    const start = typeof given === 'object' && given !== null ? (given as { S?: string }).S : given;
    return start === undefined ? undefined : `${String(start).split('#')[0]}#`;
  }
  const key = input.Key as Record<string, unknown> | undefined;
  const sk = key?.sk as string | undefined;
  return sk?.split('#')[0];
}

let counterId = 0;

/** Adds the counting middleware to `client` (the document client shares its stack with the low-level client). */
export function countDbCalls(client: DynamoDBDocumentClient, options: { consumedCapacity?: boolean } = {}): CallCounter {
  const name = `bench-call-counter-${++counterId}`;
  const calls: DbCall[] = [];
  let active = false;
  const scope = new AsyncLocalStorage<true>();
  let scoped = false;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (!active || (scoped && !scope.getStore())) return next(args);
      const input = args.input as Record<string, unknown>;
      // High in the serialize step the input is still in document form (the document
      // client marshals it further down), and so is the output on the way back.
      if (options.consumedCapacity && input.ReturnConsumedCapacity === undefined) input.ReturnConsumedCapacity = 'TOTAL';
      const call: DbCall = {
        command: String(context.commandName),
        items: 0,
        itemBytes: 0,
        target: targetOf(input),
        consistent:
          input.ConsistentRead === true ||
          Object.values((input.RequestItems as Record<string, { ConsistentRead?: boolean }>) ?? {}).some((table) => table?.ConsistentRead === true),
      };
      calls.push(call);
      const result = await next(args);
      const output = (result.output ?? {}) as Record<string, unknown>;
      // A read of string items (shared/data/batch.ts `queryRangePageStrings`) hands them over as name, value, name, value…:
      // sized as they are (an object for each would cost the read's own time again).
      const stringItems = output.StringItems as string[][] | undefined;
      const items = stringItems ?? returnedItems(output);
      call.items = items.length;
      call.itemBytes = stringItems
        ? stringItems.reduce((total, item) => item.reduce((sum, text) => sum + Buffer.byteLength(text), total), 0)
        : (items as Item[]).reduce((total, item) => total + itemSize(item), 0);
      call.capacity = capacityOf(output);
      return result;
    },
    { step: 'serialize', name, priority: 'high' },
  );
  return {
    calls,
    start() {
      calls.length = 0;
      active = true;
    },
    stop() {
      active = false;
      return [...calls];
    },
    async count(work) {
      calls.length = 0;
      active = true;
      scoped = true;
      try {
        await scope.run(true, work);
      } finally {
        active = false;
        scoped = false;
      }
      return [...calls];
    },
    reset() {
      calls.length = 0;
    },
    remove() {
      active = false;
      client.middlewareStack.remove(name);
    },
  };
}

/** Totals of a list of calls, split into reads and writes. */
export function summarize(calls: readonly DbCall[]) {
  const reads = calls.filter((call) => isRead(call.command));
  const writes = calls.filter((call) => !isRead(call.command));
  const total = (list: readonly DbCall[], pick: (call: DbCall) => number) => list.reduce((sum, call) => sum + pick(call), 0);
  return {
    calls: calls.length,
    reads: reads.length,
    writes: writes.length,
    scans: calls.filter((call) => call.command === 'ScanCommand').length,
    readUnits: total(reads, (call) => call.capacity ?? 0),
    writeUnits: total(writes, (call) => call.capacity ?? 0),
    itemsRead: total(reads, (call) => call.items),
    bytesRead: total(reads, (call) => call.itemBytes),
    commands: calls.map((call) => `${call.command.replace(/Command$/, '').replace(/Item$/, '')}${call.target ? ` ${call.target}` : ''}`),
  };
}
