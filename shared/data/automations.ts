import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { clock } from '../clock';
import { newId } from '../ids';
import { queryAll } from './batch';
import { db, sendIfCondition, tableName } from './client';
import { pendingEventFragment, type PendingEvent } from './event-outbox';
import { keys, OUTBOX_SHARDS, outboxShardOf } from './keys';
import { OUTBOX_INDEX } from './table-schema';

/**
 * Automations and their executions. An execution is its own outbox record: while
 * its next step has not been handed to the queue it carries `outboxShard` and
 * `outboxAt` (the sparse GSI `outbox`), set in the same single-item write that
 * records the step, and removed once the queue has the message. A crash in between
 * leaves it in the index, and the re-drive hands it over again.
 */

/**
 * A step as stored: the data layer keeps what shared/domain/automation-steps.ts validated
 * when the automation was created, and the domain reads it back as its own step type.
 */
export interface StoredStep {
  type: string;
  [field: string]: unknown;
}

export type AutomationStatus = 'active' | 'inactive';
export type ExecutionStatus = 'triggered' | 'running' | 'completed' | 'failed';

export interface AutomationRecord {
  id: string;
  channelId: string;
  name: string;
  status: AutomationStatus;
  executionCount: number;
  steps: StoredStep[];
  createdAt: string;
}

export interface StepOutcome {
  step: number;
  type: string;
  status: 'done' | 'failed';
  at: string;
  detail?: Record<string, unknown>;
  error?: string;
}

export interface ExecutionRecord {
  id: string;
  workspaceId: string;
  channelId: string;
  automationId: string;
  automationName: string;
  contactId: string;
  conversationId: string;
  phone: string;
  status: ExecutionStatus;
  /** The next step to run. */
  stepIndex: number;
  steps: StoredStep[];
  outcomes: StepOutcome[];
  error?: string;
  /** Set until this execution is counted in its automation's executionCount. */
  countPending?: boolean;
  outboxShard?: string;
  /** When the next step may run (ms); also the outbox index's sort key. */
  outboxAt?: number;
  createdAt: string;
  updatedAt: string;
}

/** Creates an automation with a unique (case-insensitive) name in its channel. */
export async function createAutomation(workspaceId: string, channelId: string, input: { name: string; status: AutomationStatus; steps: StoredStep[] }): Promise<AutomationRecord | undefined> {
  const automation: AutomationRecord = { id: newId('au'), channelId, name: input.name, status: input.status, executionCount: 0, steps: input.steps, createdAt: clock.nowIso() };
  const nameClaimed = await sendIfCondition(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.automationName(workspaceId, channelId, input.name), entity: 'automationName', automationId: automation.id },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  if (!nameClaimed) return undefined;
  await db.send(new PutCommand({ TableName: tableName(), Item: { ...keys.automation(workspaceId, channelId, automation.id), entity: 'automation', ...automation } }));
  return automation;
}

/** Reads an automation of one channel by id (an id of another channel is simply not there). */
export async function getAutomation(workspaceId: string, channelId: string, automationId: string): Promise<AutomationRecord | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.automation(workspaceId, channelId, automationId), ConsistentRead: true }));
  return Item as AutomationRecord | undefined;
}

/** Reads an automation of one channel by its name, matched case-insensitively. */
export async function getAutomationByName(workspaceId: string, channelId: string, name: string): Promise<AutomationRecord | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.automationName(workspaceId, channelId, name), ConsistentRead: true }));
  return Item ? getAutomation(workspaceId, channelId, Item.automationId) : undefined;
}

/** The channel's automations without their steps, ordered by name (one query). */
export async function listAutomations(workspaceId: string, channelId: string): Promise<Array<Pick<AutomationRecord, 'id' | 'name' | 'status' | 'executionCount'>>> {
  const { pk, skPrefix } = keys.automationPrefix(workspaceId, channelId);
  const items = await queryAll<AutomationRecord>(pk, skPrefix, {
    ProjectionExpression: 'id, #name, #status, executionCount',
    ExpressionAttributeNames: { '#name': 'name', '#status': 'status' },
  });
  return items.map(({ id, name, status, executionCount }) => ({ id, name, status, executionCount: Number(executionCount ?? 0) })).sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}

/** Writes a new execution, already in the outbox and not yet counted. */
export async function putExecution(execution: ExecutionRecord): Promise<void> {
  await db.send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.execution(execution.workspaceId, execution.channelId, execution.id), entity: 'execution', ...execution },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

/** A new execution's outbox fields. */
export function outboxFields(executionId: string, at: number): Pick<ExecutionRecord, 'outboxShard' | 'outboxAt'> {
  return { outboxShard: outboxShardOf(executionId), outboxAt: at };
}

export async function getExecution(workspaceId: string, channelId: string, executionId: string): Promise<ExecutionRecord | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.execution(workspaceId, channelId, executionId), ConsistentRead: true }));
  return Item as ExecutionRecord | undefined;
}

/**
 * Counts an execution in its automation exactly once: only the caller that clears
 * the execution's `countPending` marker adds 1. (A crash between the two leaves the
 * count one short; the trigger is otherwise complete.)
 */
export async function countExecution(execution: Pick<ExecutionRecord, 'workspaceId' | 'channelId' | 'id' | 'automationId'>): Promise<boolean> {
  const claimed = await sendIfCondition(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.execution(execution.workspaceId, execution.channelId, execution.id),
      UpdateExpression: 'REMOVE countPending',
      ConditionExpression: 'countPending = :true',
      ExpressionAttributeValues: { ':true': true },
    }),
  );
  if (!claimed) return false;
  await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.automation(execution.workspaceId, execution.channelId, execution.automationId),
      UpdateExpression: 'ADD executionCount :one',
      ExpressionAttributeValues: { ':one': 1 },
    }),
  );
  return true;
}

/**
 * Records the outcome of step `fromStep` and moves the execution on, exactly once
 * (condition: it is still at that step and not finished). When another step
 * follows, the execution goes into the outbox for it in the same write.
 */
export async function advanceExecution(
  execution: Pick<ExecutionRecord, 'workspaceId' | 'channelId' | 'id'>,
  fromStep: number,
  outcome: StepOutcome,
  next: { status: ExecutionStatus; runAt?: number; error?: string },
  /** The execution's end event, recorded in the same write (shared/data/event-outbox.ts). */
  event?: PendingEvent,
): Promise<boolean> {
  const names: Record<string, string> = { '#status': 'status' };
  const values: Record<string, unknown> = { ':from': fromStep, ':next': fromStep + 1, ':outcome': [outcome], ':status': next.status, ':now': clock.nowIso(), ':empty': [], ':triggered': 'triggered', ':running': 'running' };
  const sets = ['stepIndex = :next', 'outcomes = list_append(if_not_exists(outcomes, :empty), :outcome)', '#status = :status', 'updatedAt = :now'];
  if (next.runAt !== undefined) {
    sets.push('outboxShard = :shard', 'outboxAt = :runAt');
    values[':shard'] = outboxShardOf(execution.id);
    values[':runAt'] = next.runAt;
  }
  if (event && next.runAt === undefined) {
    const outbox = pendingEventFragment(keys.execution(execution.workspaceId, execution.channelId, execution.id), event, clock.now());
    sets.push(...outbox.sets);
    Object.assign(values, outbox.values);
  }
  if (next.error !== undefined) {
    sets.push('#error = :error');
    names['#error'] = 'error';
    values[':error'] = next.error;
  }
  return sendIfCondition(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.execution(execution.workspaceId, execution.channelId, execution.id),
      UpdateExpression: `SET ${sets.join(', ')}`,
      ConditionExpression: 'stepIndex = :from AND #status IN (:triggered, :running)',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    }),
  );
}

/** Marks an execution running (idempotent; only from triggered). */
export async function markRunning(execution: Pick<ExecutionRecord, 'workspaceId' | 'channelId' | 'id'>): Promise<void> {
  await sendIfCondition(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.execution(execution.workspaceId, execution.channelId, execution.id),
      UpdateExpression: 'SET #status = :running, updatedAt = :now',
      ConditionExpression: '#status = :triggered',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':running': 'running', ':triggered': 'triggered', ':now': clock.nowIso() },
    }),
  );
}

/** Takes an execution out of the outbox once the queue holds its next step. */
export async function leaveOutbox(execution: Pick<ExecutionRecord, 'workspaceId' | 'channelId' | 'id'>): Promise<void> {
  await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.execution(execution.workspaceId, execution.channelId, execution.id),
      UpdateExpression: 'REMOVE outboxShard, outboxAt',
    }),
  );
}

/** Executions in the outbox due before `before` (ms), from every shard: the re-drive's work list. */
export async function outboxEntries(before: number, limitPerShard = 100): Promise<Array<{ workspaceId: string; channelId: string; executionId: string }>> {
  const entries: Array<{ workspaceId: string; channelId: string; executionId: string }> = [];
  for (let shard = 0; shard < OUTBOX_SHARDS; shard++) {
    const { Items = [] } = await db.send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: OUTBOX_INDEX.indexName,
        KeyConditionExpression: '#shard = :shard AND #at <= :before',
        ExpressionAttributeNames: { '#shard': OUTBOX_INDEX.partitionKey, '#at': OUTBOX_INDEX.sortKey },
        ExpressionAttributeValues: { ':shard': `OUTBOX#${shard}`, ':before': before },
        Limit: limitPerShard,
      }),
    );
    for (const item of Items) {
      const [, workspaceId, , channelId] = String(item.pk).split('#');
      entries.push({ workspaceId, channelId, executionId: String(item.sk).slice('EXEC#'.length) });
    }
  }
  return entries;
}
