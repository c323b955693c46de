import * as v from 'valibot';
import { clock } from '../clock';
import {
  AutomationItem,
  countExecution,
  getAutomation,
  getAutomationByName,
  getExecution,
  leaveOutbox,
  readAutomations,
  outboxEntries,
  outboxFields,
  putExecution,
  type AutomationRecord,
  type ExecutionRecord,
} from '../data/automations';
import { ensureContact } from '../data/contacts';
import { ensureConversation } from '../data/conversations';
import { InvalidInputError, NotFoundError } from '../errors';
import { countAutomationTriggered } from '../observability/metrics';
import { newId } from '../ids';
import { enqueueStep } from '../queue/step-queue';
import type { ChannelRef } from '../identity';
import { described } from '../schema/docs';
import { component } from '../schema/responses';

/**
 * automations/trigger and the outbox re-drive. A trigger records the execution (in
 * the outbox), counts it once, hands step 1 to the queue and only then leaves the
 * outbox; the answer does not wait for the steps.
 */

export interface TriggerInput {
  phoneNumber: string;
  automationId?: string;
  automationName?: string;
}

/** An automation as automations/list shows it (its steps left out). */
export const Automation = component(
  'Automation',
  v.strictObject({
    id: described(AutomationItem.entries.id, 'Automation id', 'au_01jhx3k8m0'),
    name: described(AutomationItem.entries.name, 'Name (matched case-insensitively as automationName)', 'Welcome Flow'),
    status: described(AutomationItem.entries.status, 'Only active automations can be triggered', 'active'),
    executionCount: described(v.pipe(v.number(), v.integer()), 'Number of executions triggered', 3),
  }),
);

/** What automations/trigger answers: the execution started. */
export const AutomationExecution = component(
  'AutomationExecution',
  v.strictObject({
    executionId: described(v.string(), 'Execution id', 'ex_01jhx3k8m0'),
    automationId: described(v.string(), 'The automation triggered', 'au_01jhx3k8m0'),
    automationName: described(v.string(), 'Its name', 'Welcome Flow'),
    contactId: described(v.string(), 'The contact created or found', 'ct_01jhx3k8m0'),
    conversationId: described(v.string(), 'The conversation created or found', 'cv_01jhx3k8m0'),
    status: described(v.literal('triggered'), 'triggered: the steps run in the background', 'triggered'),
  }),
);
export type TriggerAnswer = v.InferOutput<typeof AutomationExecution>;

/** automations/list: the channel's automations by name, with their execution counts (steps left out). */
export function listAutomations(channel: ChannelRef): Promise<v.InferOutput<typeof Automation>[]> {
  return readAutomations(channel);
}

/** An execution still in the outbox this long after it was due is handed to the queue again. */
export const OUTBOX_GRACE_MS = 30_000;

/** Finds the automation in the authorized channel only: ids and names of other channels or workspaces are a 404 like unknown ones. */
async function findAutomation(channel: ChannelRef, input: TriggerInput): Promise<AutomationRecord> {
  const automation = input.automationId ? await getAutomation(channel, input.automationId) : await getAutomationByName(channel, input.automationName!);
  if (!automation) {
    const parameter = input.automationId ? 'automationId' : 'automationName';
    throw new NotFoundError('Automation not found in this channel.', { parameter });
  }
  return automation;
}

export async function triggerAutomation(channel: ChannelRef, input: TriggerInput): Promise<TriggerAnswer> {
  const automation = await findAutomation(channel, input);
  if (automation.status !== 'active') {
    throw new InvalidInputError(
      `Automation "${automation.name}" is inactive; activate it before triggering it.`,
      input.automationId ? 'automationId' : 'automationName',
      'automation_inactive',
    );
  }
  const { contact } = await ensureContact(channel, input.phoneNumber);
  const conversation = await ensureConversation(channel, input.phoneNumber, contact.id);
  const now = clock.now();
  const executionId = newId('ex');
  const execution: ExecutionRecord = {
    id: executionId,
    workspaceId: channel.workspaceId,
    channelId: channel.channelId,
    automationId: automation.id,
    automationName: automation.name,
    contactId: contact.id,
    conversationId: conversation.id,
    phone: input.phoneNumber,
    status: 'triggered',
    stepIndex: 0,
    steps: automation.steps,
    outcomes: [],
    countPending: true,
    ...outboxFields(executionId, now),
    createdAt: new Date(now).toISOString(),
    updatedAt: new Date(now).toISOString(),
  };
  await putExecution(execution);
  await countExecution(execution);
  countAutomationTriggered();
  await dispatch(execution, 0, now);
  return {
    executionId: execution.id,
    automationId: automation.id,
    automationName: automation.name,
    contactId: contact.id,
    conversationId: conversation.id,
    status: 'triggered',
  };
}

/** Hands step `step` to the queue, then takes the execution out of the outbox. */
export async function dispatch(execution: Pick<ExecutionRecord, 'workspaceId' | 'channelId' | 'id'>, step: number, notBefore: number): Promise<void> {
  await enqueueStep({ workspaceId: execution.workspaceId, channelId: execution.channelId, executionId: execution.id, step, notBefore });
  await leaveOutbox(execution);
}

/**
 * The re-drive: finishes what a crash interrupted. Every execution still in the
 * outbox a grace period after it was due is counted (if it was not) and its next
 * step is handed to the queue again; the runner ignores a step it has done.
 */
export async function redriveOutbox(): Promise<{ redriven: number }> {
  const entries = await outboxEntries(clock.now() - OUTBOX_GRACE_MS);
  let redriven = 0;
  for (const entry of entries) {
    const execution = await getExecution(entry, entry.executionId);
    if (!execution || execution.outboxAt === undefined) continue;
    if (execution.countPending) await countExecution(execution);
    if (execution.status === 'completed' || execution.status === 'failed') await leaveOutbox(execution);
    else await dispatch(execution, execution.stepIndex, execution.outboxAt);
    redriven++;
  }
  return { redriven };
}
