import * as v from 'valibot';
import { clock } from '../clock';
import { newId } from '../ids';
import { dueOutboxKeys, queryAll } from './batch';
import { getItem, putIfAbsent, putItem, putNew, update, when } from './client';
import { entity, ItemKey, tagged, type Attributes } from './entity';
import { keys, OUTBOX_PARTITIONS, outboxShardOf, parseExecutionKey } from './keys';
import type { ChannelRef } from '../identity';
import { eventTicket, withPendingEvent, type EventTicket, type PendingEvent } from './event-outbox';

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
const StoredStep = v.looseObject({ type: v.string() });
export type StoredStep = v.InferOutput<typeof StoredStep>;

export const AUTOMATION_STATUSES = ['active', 'inactive'] as const;
export type AutomationStatus = (typeof AUTOMATION_STATUSES)[number];
const EXECUTION_STATUSES = ['triggered', 'running', 'completed', 'failed'] as const;
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];

/** An automation of a channel: its steps, and how often it was triggered. */
export const AutomationItem = entity('automation', {
  id: v.string(),
  channelId: v.string(),
  name: v.string(),
  status: v.picklist(AUTOMATION_STATUSES),
  executionCount: v.optional(v.number(), 0),
  steps: v.array(StoredStep),
  createdAt: v.string(),
});
export type AutomationRecord = Attributes<typeof AutomationItem>;

/** Pointer item: an automation's lowercased name → its id (unique per channel). */
export const AutomationNameItem = entity('automationName', { automationId: v.string() });

const StepOutcome = v.object({
  step: v.number(),
  type: v.string(),
  status: v.picklist(['done', 'failed']),
  at: v.string(),
  detail: v.optional(v.record(v.string(), v.unknown())),
  error: v.optional(v.string()),
});
export type StepOutcome = v.InferOutput<typeof StepOutcome>;

/**
 * One run of an automation for one contact: the steps copied at trigger, where it is, what
 * each step did. Its own outbox record while its next step is not yet with the queue.
 */
export const ExecutionItem = entity('execution', {
  id: v.string(),
  workspaceId: v.string(),
  channelId: v.string(),
  automationId: v.string(),
  automationName: v.string(),
  contactId: v.string(),
  conversationId: v.string(),
  /** The contact's number; gone once the contact is erased ({@link forgetExecutionsOf}). */
  phone: v.optional(v.string()),
  status: v.picklist(EXECUTION_STATUSES),
  /** The next step to run. */
  stepIndex: v.number(),
  steps: v.array(StoredStep),
  outcomes: v.array(StepOutcome),
  error: v.optional(v.string()),
  /** Set until this execution is counted in its automation's executionCount. */
  countPending: v.optional(v.boolean()),
  outboxShard: v.optional(v.string()),
  /** When the next step may run (ms); also the outbox index's sort key. */
  outboxAt: v.optional(v.number()),
  createdAt: v.string(),
  updatedAt: v.string(),
  /** TTL (epoch seconds): set when the contact is erased. */
  expiresAt: v.optional(v.number()),
});
export type ExecutionRecord = Attributes<typeof ExecutionItem>;

/** How long an erased contact's execution is kept (without its phone, error or step outcomes): as long as the events log keeps its events. */
const ERASED_EXECUTION_RETENTION_SECONDS = 8 * 24 * 60 * 60;

/**
 * An erasure's step for the contact's executions (found by `phone` among the channel's
 * executions: erasure only, never a request path): each loses the phone, its error and
 * its step outcomes (which may name the number) and expires after a while. An execution
 * without a phone runs no further step, and cannot move on ({@link advanceExecution}
 * requires the phone), so none raises an event after the erasure.
 */
export async function forgetExecutionsOf(channel: ChannelRef, phone: string, nowMs: number): Promise<number> {
  const { pk, skPrefix } = keys.executionPrefix(channel);
  const found = await queryAll(pk, skPrefix, ItemKey, { attributes: ['pk', 'sk'], filter: when.eq('phone', phone), consistent: true });
  const expiresAt = Math.floor(nowMs / 1000) + ERASED_EXECUTION_RETENTION_SECONDS;
  await Promise.all(found.map((key) => update(key).remove('phone', 'error').set('outcomes', []).set('expiresAt', expiresAt).send()));
  return found.length;
}

/** Creates an automation with a unique (case-insensitive) name in its channel. */
export async function createAutomation(
  channel: ChannelRef,
  input: { name: string; status: AutomationStatus; steps: StoredStep[] },
): Promise<AutomationRecord | undefined> {
  const automation: AutomationRecord = {
    id: newId('au'),
    channelId: channel.channelId,
    name: input.name,
    status: input.status,
    executionCount: 0,
    steps: input.steps,
    createdAt: clock.nowIso(),
  };
  const nameClaim = await putIfAbsent(tagged(AutomationNameItem, keys.automationName(channel, input.name), { automationId: automation.id }));
  if (nameClaim === 'existing') return undefined;
  await putItem(tagged(AutomationItem, keys.automation(channel, automation.id), automation));
  return automation;
}

/** Reads an automation of one channel by id (an id of another channel is simply not there). */
export async function getAutomation(channel: ChannelRef, automationId: string): Promise<AutomationRecord | undefined> {
  return getItem(keys.automation(channel, automationId), AutomationItem, { consistent: true });
}

/** Reads an automation of one channel by its name, matched case-insensitively. */
export async function getAutomationByName(channel: ChannelRef, name: string): Promise<AutomationRecord | undefined> {
  const pointer = await getItem(keys.automationName(channel, name), AutomationNameItem, { consistent: true });
  return pointer ? getAutomation(channel, pointer.automationId) : undefined;
}

/** The channel's automations without their steps, ordered by name (one query). */
export async function readAutomations(channel: ChannelRef): Promise<Array<Pick<AutomationRecord, 'id' | 'name' | 'status' | 'executionCount'>>> {
  const { pk, skPrefix } = keys.automationPrefix(channel);
  const listed = ['id', 'name', 'status', 'executionCount'] as const;
  const items = await queryAll(pk, skPrefix, v.pick(AutomationItem, listed), { attributes: listed });
  return items
    .map(({ id, name, status, executionCount }) => ({ id, name, status, executionCount }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}

/** Writes a new execution, already in the outbox and not yet counted. */
export async function putExecution(execution: ExecutionRecord): Promise<void> {
  await putNew(tagged(ExecutionItem, keys.execution(execution, execution.id), execution));
}

/** A new execution's outbox fields. */
export function outboxFields(executionId: string, at: number): Pick<ExecutionRecord, 'outboxShard' | 'outboxAt'> {
  return { outboxShard: outboxShardOf(executionId), outboxAt: at };
}

export async function getExecution(channel: ChannelRef, executionId: string): Promise<ExecutionRecord | undefined> {
  return getItem(keys.execution(channel, executionId), ExecutionItem, { consistent: true });
}

/**
 * Counts an execution in its automation exactly once: only the caller that clears
 * the execution's `countPending` marker adds 1. (A crash between the two leaves the
 * count one short; the trigger is otherwise complete.)
 */
export async function countExecution(execution: Pick<ExecutionRecord, 'workspaceId' | 'channelId' | 'id' | 'automationId'>): Promise<boolean> {
  const claimed = await update(keys.execution(execution, execution.id)).remove('countPending').when(when.eq('countPending', true)).send();
  if (!claimed) return false;
  await update(keys.automation(execution, execution.automationId)).add('executionCount', 1).send();
  return true;
}

/**
 * Records the outcome of step `fromStep` and moves the execution on, exactly once
 * (condition: it is still at that step, not finished, and its contact not erased). When another step
 * follows, the execution goes into the outbox for it in the same write. Returns whether
 * it moved, and the ticket of the end event's hand-off when that rode on the write.
 */
export async function advanceExecution(
  execution: Pick<ExecutionRecord, 'workspaceId' | 'channelId' | 'id'>,
  fromStep: number,
  outcome: StepOutcome,
  next: { status: ExecutionStatus; runAt?: number; error?: string },
  /** The execution's end event, recorded in the same write (shared/data/event-outbox.ts). */
  event?: PendingEvent,
): Promise<{ moved: boolean; events?: EventTicket }> {
  const willRun = next.runAt !== undefined;
  const key = keys.execution(execution, execution.id);
  // The end of an execution carries its event into the event outbox in the same write.
  const carried = event && !willRun ? event : undefined;
  const builder = carried ? withPendingEvent(update(key), key, carried, clock.now()) : update(key);
  const moved = await builder
    .set('stepIndex', fromStep + 1)
    .append('outcomes', [outcome])
    .set('status', next.status)
    .set('updatedAt', clock.nowIso())
    .set('outboxShard', willRun ? outboxShardOf(execution.id) : undefined)
    .set('outboxAt', willRun ? next.runAt : undefined)
    .set('error', next.error)
    .when(when.and(when.eq('stepIndex', fromStep), when.oneOf('status', ['triggered', 'running']), when.exists('phone')))
    .send();
  const { workspaceId, channelId } = execution;
  return { moved, events: moved && carried ? eventTicket(key, { workspaceId, channelId, pendingEvents: [carried] }) : undefined };
}

/** Marks an execution running (idempotent; only from triggered). */
export async function markRunning(execution: Pick<ExecutionRecord, 'workspaceId' | 'channelId' | 'id'>): Promise<void> {
  await update(keys.execution(execution, execution.id)).set('status', 'running').set('updatedAt', clock.nowIso()).when(when.eq('status', 'triggered')).send();
}

/** Takes an execution out of the outbox once the queue holds its next step. */
export async function leaveOutbox(execution: Pick<ExecutionRecord, 'workspaceId' | 'channelId' | 'id'>): Promise<void> {
  await update(keys.execution(execution, execution.id)).remove('outboxShard', 'outboxAt').send();
}

/** Executions in the outbox due before `before` (ms), from every shard: the re-drive's work list. */
export async function outboxEntries(before: number, limitPerShard = 100): Promise<Array<{ workspaceId: string; channelId: string; executionId: string }>> {
  return (await dueOutboxKeys(OUTBOX_PARTITIONS, before, limitPerShard)).map(parseExecutionKey);
}
