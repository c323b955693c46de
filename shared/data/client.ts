import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
  type QueryCommandInput,
  type QueryCommandOutput,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { ConfiguredRetryStrategy } from '@smithy/core/retry';
import { config } from '../config';
import { parseItem, type ItemSchema, type Stored } from './entity';
import { ExpressionScope, updateExpression, when, type AttributePath, type Condition, type UpdateClauses } from './expressions';
import type { Key } from '../identity';
import { LOCAL_TABLE_NAME } from './table-schema';

export { when, type AttributePath, type Condition } from './expressions';

/**
 * The table's document client, created once per container (module scope).
 *
 * DYNAMODB_ENDPOINT points it at dynalite or DynamoDB Local; there it needs no real
 * credentials. Throttling and 5xx are retried (4 attempts) with full-jitter
 * exponential backoff capped so all retries fit in about a second and a half, well
 * inside the API functions' 10 s budget (the SDK's default throttling base of 500 ms
 * could spend several seconds).
 */
const retryDelay = (attempt: number) => Math.round(Math.random() * Math.min(800, 50 * 2 ** attempt));
function createDocumentClient(): DynamoDBDocumentClient {
  const endpoint = config.dynamodbEndpoint();
  const client = new DynamoDBClient({
    ...(endpoint
      ? {
          endpoint,
          region: config.awsRegion(),
          credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        }
      : {}),
    retryStrategy: new ConfiguredRetryStrategy(4, retryDelay),
  });
  return DynamoDBDocumentClient.from(client, {
    // convertClassInstanceToMap: a map with a key named `constructor` (a custom field may be
    // named so) fails the marshaller's plain-object test; this option writes it as a map.
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: true },
  });
}

export const db = createDocumentClient();

export const tableName = (): string => config.tableName() ?? LOCAL_TABLE_NAME;

/** True when a DynamoDB call failed only because its condition did not hold. */
export function isConditionFailure(error: unknown): boolean {
  return (error as { name?: string })?.name === 'ConditionalCheckFailedException';
}

async function unlessConditionFails<T>(sent: Promise<T>): Promise<T | undefined> {
  try {
    return await sent;
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

/** Renders an optional condition into a scope: the command's ConditionExpression, or nothing. */
function conditionInput(scope: ExpressionScope, condition: Condition | undefined): { ConditionExpression?: string } {
  return condition ? { ConditionExpression: scope.condition(condition) } : {};
}

export interface GetOptions {
  /** Strongly consistent read (twice the read units). */
  consistent?: boolean;
  /** Only these top-level attributes (a projection); default the whole item. */
  attributes?: readonly string[];
}

/**
 * Reads one item by key (one GetItem) and parses it with `schema` (shared/data/entity.ts),
 * or undefined when there is none.
 */
export async function getItem<S extends ItemSchema>(key: Key, schema: S, options: GetOptions = {}): Promise<Stored<S> | undefined> {
  const scope = new ExpressionScope();
  const projection = options.attributes?.map((name) => scope.path(name)).join(', ');
  const { Item } = await db.send(
    new GetCommand({
      TableName: tableName(),
      Key: key,
      ...(options.consistent ? { ConsistentRead: true } : {}),
      ...(projection ? { ProjectionExpression: projection } : {}),
      ...scope.attributes(),
    }),
  );
  return Item && parseItem(schema, Item);
}

/**
 * Writes a whole item (one PutItem), replacing any item of its key unless `condition`
 * says otherwise. Returns false when the condition did not hold (nothing written).
 */
export async function putItem(item: Key & Record<string, unknown>, condition?: Condition): Promise<boolean> {
  const scope = new ExpressionScope();
  return (
    (await unlessConditionFails(
      db.send(new PutCommand({ TableName: tableName(), Item: item, ...conditionInput(scope, condition), ...scope.attributes() })),
    )) !== undefined
  );
}

/** Writes an item only when none has its key (one conditional PutItem): `created`, or `existing` and nothing written. */
export async function putIfAbsent(item: Key & Record<string, unknown>): Promise<'created' | 'existing'> {
  return (await putItem(item, when.itemAbsent())) ? 'created' : 'existing';
}

/**
 * Writes an item that must not exist yet (one conditional PutItem). An existing item
 * is an error, not a race the caller expects: its ConditionalCheckFailedException propagates.
 */
export async function putNew(item: Key & Record<string, unknown>): Promise<void> {
  const scope = new ExpressionScope();
  await db.send(
    new PutCommand({ TableName: tableName(), Item: item, ConditionExpression: `attribute_not_exists(${scope.path('pk')})`, ...scope.attributes() }),
  );
}

/** Deletes an item (one DeleteItem). Returns false when `condition` did not hold (nothing deleted). */
export async function deleteItem(key: Key, condition?: Condition): Promise<boolean> {
  const scope = new ExpressionScope();
  return (
    (await unlessConditionFails(
      db.send(new DeleteCommand({ TableName: tableName(), Key: key, ...conditionInput(scope, condition), ...scope.attributes() })),
    )) !== undefined
  );
}

/** One Query of the table or an index (one page, as `input` limits it), with the table name filled in. */
export async function queryPage(input: Omit<QueryCommandInput, 'TableName'>): Promise<QueryCommandOutput> {
  return db.send(new QueryCommand({ TableName: tableName(), ...input }));
}

/** Starts an UpdateItem of one item; see {@link UpdateBuilder}. */
export function update(key: Key): UpdateBuilder {
  return new UpdateBuilder(key);
}

/**
 * An UpdateItem under construction. Each method adds one clause with its generated
 * name and value placeholders; an `undefined` value adds nothing, so optional fields
 * need no filtering first. `send` runs it once.
 */
export class UpdateBuilder {
  private readonly scope = new ExpressionScope();
  private readonly clauses: UpdateClauses = { set: [], remove: [], add: [], delete: [] };
  private condition?: Condition;

  constructor(private readonly key: Key) {}

  /** `path = value` (nothing when value is undefined). */
  set(path: AttributePath, value: unknown): this {
    if (value !== undefined) this.clauses.set.push(`${this.scope.path(path)} = ${this.scope.value(value)}`);
    return this;
  }

  /** Every defined field of `fields`, each as a top-level attribute. */
  setAll(fields: Record<string, unknown>): this {
    for (const [name, value] of Object.entries(fields)) this.set(name, value);
    return this;
  }

  /** `path = value` unless the attribute already has a value (the first writer's value stays). */
  setIfNotExists(path: AttributePath, value: unknown): this {
    if (value !== undefined) {
      const name = this.scope.path(path);
      this.clauses.set.push(`${name} = if_not_exists(${name}, ${this.scope.value(value)})`);
    }
    return this;
  }

  /** Sets a defined value, removes the attribute for null, and leaves it alone for undefined. */
  setOrRemove(path: AttributePath, value: unknown): this {
    return value === null ? this.remove(path) : this.set(path, value);
  }

  /** Removes attributes. */
  remove(...paths: AttributePath[]): this {
    for (const path of paths) this.clauses.remove.push(this.scope.path(path));
    return this;
  }

  /** Adds to a number (creating it at 0) or to a set (nothing when value is undefined). */
  add(path: AttributePath, value: number | Set<string> | undefined): this {
    if (value !== undefined) this.clauses.add.push(`${this.scope.path(path)} ${this.scope.value(value)}`);
    return this;
  }

  /** Takes elements out of a set attribute. */
  deleteFromSet(path: AttributePath, value: Set<string>): this {
    this.clauses.delete.push(`${this.scope.path(path)} ${this.scope.value(value)}`);
    return this;
  }

  /** Appends elements to a list attribute, creating it when absent. */
  append(path: AttributePath, elements: readonly unknown[]): this {
    const name = this.scope.path(path);
    this.clauses.set.push(`${name} = list_append(if_not_exists(${name}, ${this.scope.value([])}), ${this.scope.value(elements)})`);
    return this;
  }

  /** The condition the update is made under (the last one given). */
  when(condition: Condition): this {
    this.condition = condition;
    return this;
  }

  /** The UpdateItem input this builder stands for (without ReturnValues). */
  input(): UpdateCommandInput {
    const UpdateExpression = updateExpression(this.clauses);
    const condition = conditionInput(this.scope, this.condition);
    return { TableName: tableName(), Key: this.key, UpdateExpression, ...condition, ...this.scope.attributes() };
  }

  /** Runs the update; false when its condition did not hold (nothing changed). */
  async send(): Promise<boolean> {
    return (await unlessConditionFails(db.send(new UpdateCommand(this.input())))) !== undefined;
  }

  /** Runs the update where a failed condition is an error: its ConditionalCheckFailedException propagates. */
  async sendOrThrow(): Promise<void> {
    await db.send(new UpdateCommand(this.input()));
  }

  /** Runs the update where a failed condition is an error, and returns the whole item after it, parsed with `schema`. */
  async sendReturningOrThrow<S extends ItemSchema>(schema: S): Promise<Stored<S>> {
    const output = await db.send(new UpdateCommand({ ...this.input(), ReturnValues: 'ALL_NEW' }));
    return parseItem(schema, output.Attributes ?? {});
  }

  /**
   * Runs the update and returns the attributes `returnValues` asks for (by default the
   * whole item after the update; `ALL_OLD`, the whole item before it), parsed with
   * `schema`, or undefined when the condition did not hold.
   */
  async sendReturning<S extends ItemSchema>(schema: S, returnValues: 'ALL_NEW' | 'UPDATED_NEW' | 'ALL_OLD' = 'ALL_NEW'): Promise<Stored<S> | undefined> {
    const output = await unlessConditionFails(db.send(new UpdateCommand({ ...this.input(), ReturnValues: returnValues })));
    return output && parseItem(schema, output.Attributes ?? {});
  }
}
