import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import type { Item } from './fixtures';

/**
 * Canned DynamoDB replies for the warm-CPU benchmark: the shared document client is
 * answered in-process by aws-sdk-client-mock from a fixed set of items, so a request
 * costs only our code. Reads answer from the items; writes answer as DynamoDB would
 * for the fixture (conditions on the item's existence are honoured) but change
 * nothing, so every iteration does the same work.
 */

/** The parts of the document client's command inputs the canned table reads. */
interface CommandInput {
  Key: { pk: string; sk: string };
  Item: Item;
  KeyConditionExpression?: string;
  ExpressionAttributeValues?: Record<string, unknown>;
  ExpressionAttributeNames?: Record<string, string>;
  ProjectionExpression?: string;
  FilterExpression?: string;
  ExclusiveStartKey?: { sk: string };
  Limit?: number;
  ScanIndexForward?: boolean;
  ConditionExpression?: string;
  UpdateExpression?: string;
  ReturnValues?: string;
  RequestItems: Record<string, { Keys: Array<{ pk: string; sk: string }> }>;
}

const conditionFailed = () =>
  Object.assign(new Error('The conditional request failed'), { name: 'ConditionalCheckFailedException', $fault: 'client', $metadata: {} });

export class CannedTable {
  private readonly partitions = new Map<string, Map<string, Item>>();

  constructor(items: Item[]) {
    for (const item of items) this.add(item);
  }

  add(item: Item): void {
    let partition = this.partitions.get(item.pk);
    if (!partition) this.partitions.set(item.pk, (partition = new Map()));
    partition.set(item.sk, item);
  }

  private item(key: { pk: string; sk: string }): Item | undefined {
    return this.partitions.get(key.pk)?.get(key.sk);
  }

  query(input: Partial<CommandInput>) {
    const values = input.ExpressionAttributeValues ?? {};
    const expression = String(input.KeyConditionExpression ?? '');
    const pkName = /pk\s*=\s*(:\w+)/.exec(expression)?.[1];
    const prefixName = /begins_with\(\s*sk\s*,\s*(:\w+)\s*\)/.exec(expression)?.[1];
    const exactName = /sk\s*=\s*(:\w+)/.exec(expression)?.[1];
    const pk = String(values[pkName ?? ':pk']);
    const partition = this.partitions.get(pk);
    let sks = [...(partition?.keys() ?? [])].sort();
    if (prefixName) sks = sks.filter((sk) => sk.startsWith(String(values[prefixName])));
    if (exactName) sks = sks.filter((sk) => sk === values[exactName]);
    // Ranges of the sort key: `sk BETWEEN :a AND :b` (the events log, the delivery log) and comparisons.
    const between = /sk\s+BETWEEN\s+(:\w+)\s+AND\s+(:\w+)/i.exec(expression);
    if (between) sks = sks.filter((sk) => sk >= String(values[between[1]]) && sk <= String(values[between[2]]));
    const compared = /sk\s*(<=|>=|<|>)\s*(:\w+)/.exec(expression);
    if (compared) {
      const bound = String(values[compared[2]]);
      const holds = { '<=': (sk: string) => sk <= bound, '>=': (sk: string) => sk >= bound, '<': (sk: string) => sk < bound, '>': (sk: string) => sk > bound };
      sks = sks.filter(holds[compared[1] as keyof typeof holds]);
    }
    if (input.ScanIndexForward === false) sks.reverse();
    const start = input.ExclusiveStartKey?.sk;
    if (start !== undefined) sks = sks.slice(sks.indexOf(start) + 1);
    const limited = input.Limit !== undefined && sks.length > input.Limit;
    if (limited) sks = sks.slice(0, input.Limit);
    const nameOf = (name: string) => input.ExpressionAttributeNames?.[name.trim()] ?? name.trim();
    const projection = input.ProjectionExpression?.split(',').map(nameOf);
    // A filter of equalities joined by AND (the erasure's `contactKey`, the delivery log's `status`), applied after
    // Limit as DynamoDB does; any other filter keeps every item.
    const filter = String(input.FilterExpression ?? '');
    const equalities = /\bOR\b|<|>/.test(filter)
      ? []
      : [...filter.matchAll(/(#?\w+)\s*=\s*(:\w+)/g)].map(([, name, value]) => [nameOf(name), values[value]] as const);
    const items = sks
      .map((sk) => partition!.get(sk)!)
      .filter((item) => equalities.every(([name, value]) => item[name] === value))
      .map((item) => (projection ? Object.fromEntries(projection.filter((name) => name in item).map((name) => [name, item[name]])) : { ...item }));
    return { Items: items, Count: items.length, ...(limited ? { LastEvaluatedKey: { pk, sk: sks[sks.length - 1] } } : {}) };
  }

  get(input: Pick<CommandInput, 'Key'>) {
    const item = this.item(input.Key);
    return item ? { Item: { ...item } } : {};
  }

  batchGet(input: Pick<CommandInput, 'RequestItems'>) {
    const responses: Record<string, Item[]> = {};
    for (const [table, request] of Object.entries(input.RequestItems)) {
      responses[table] = request.Keys.flatMap((key) => {
        const item = this.item(key);
        return item ? [{ ...item }] : [];
      });
    }
    return { Responses: responses, UnprocessedKeys: {} };
  }

  private checkExistence(input: Partial<CommandInput>, exists: boolean) {
    const condition = String(input.ConditionExpression ?? '');
    if (/attribute_exists\(pk\)/.test(condition) && !exists) throw conditionFailed();
    if (/attribute_not_exists\(pk\)/.test(condition) && exists) throw conditionFailed();
  }

  update(input: Partial<CommandInput> & Pick<CommandInput, 'Key'>) {
    const existing = this.item(input.Key);
    this.checkExistence(input, existing !== undefined);
    if (/indexPending\s*=/.test(String(input.ConditionExpression ?? '')) && existing?.indexPending !== true) throw conditionFailed();
    // The rate limiter's window counter: the first request of its window.
    if (/ADD #n :/.test(String(input.UpdateExpression))) return { Attributes: { n: 1 } };
    if (input.ReturnValues === 'ALL_NEW') return { Attributes: { ...(existing ?? input.Key) } };
    if (input.ReturnValues === 'UPDATED_NEW') return { Attributes: {} };
    return {};
  }

  put(input: Partial<CommandInput> & Pick<CommandInput, 'Item'>) {
    this.checkExistence(input, this.item(input.Item) !== undefined);
    return {};
  }

  /** Answers every command the data layer sends on `client` from this table, until restore(). */
  install(client: DynamoDBDocumentClient) {
    const mock = mockClient(client);
    mock.on(QueryCommand).callsFake((input) => this.query(input));
    mock.on(GetCommand).callsFake((input) => this.get(input));
    mock.on(BatchGetCommand).callsFake((input) => this.batchGet(input));
    mock.on(UpdateCommand).callsFake((input) => this.update(input));
    mock.on(PutCommand).callsFake((input) => this.put(input));
    mock.on(DeleteCommand).resolves({});
    mock.on(BatchWriteCommand).resolves({ UnprocessedItems: {} });
    mock.on(TransactWriteCommand).resolves({});
    return mock;
  }
}
