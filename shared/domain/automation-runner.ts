import { clock } from '../clock';
import { MAX_RECEIVES } from '../config';
import { advanceExecution, getExecution, markRunning, type ExecutionRecord, type StepOutcome } from '../data/automations';
import { getContact, updateContact, type ContactRecord } from '../data/contacts';
import { listDefinitions } from '../data/definitions';
import { matchKey } from '../identity';
import { getReference } from '../data/messages';
import { RESERVED_API_REFERENCE_PREFIX } from '../schema/chat-params';
import { ConflictError, AppError } from '../errors';
import { logger } from '../observability/logger';
import { enqueueStep, type StepMessage } from '../queue/step-queue';

export type { StepMessage } from '../queue/step-queue';
import type { AutomationStep } from './automation-steps';
import { renderPlaceholders } from './automation-steps';
import { validateCustomFieldValues } from './contact-values';
import { sendRegularMessage, sendTemplateMessage, type SendAnswer } from './messaging';
import { dispatch } from './automations';
import { executionEndEvent } from './event-builders';
import { handOffEvents } from './events';

/**
 * The automation runner: runs one step of one execution per queue message. A step
 * is done at most once per execution: the execution records each step with a
 * condition on its position, and sends carry the apiReference
 * `automation:<execution>:<step>`, so a redelivered message never sends twice.
 */

/** A step that cannot succeed by retrying (bad template, closed window, unknown label): the execution fails. */
export class StepFailure extends Error {}

/** An execution whose contact is not erased (an erasure takes the phone: shared/data/automations.ts `forgetExecutionsOf`). */
type LiveExecution = ExecutionRecord & { phone: string };

export interface RunResult {
  outcome: 'done' | 'skipped' | 'failed' | 'deferred' | 'completed';
}

const isLive = (execution: ExecutionRecord): execution is LiveExecution => execution.phone !== undefined;

/** Runs the step a queue message names. Throws on transient errors so the queue retries. */
export async function runStep(message: StepMessage, receiveCount: number): Promise<RunResult> {
  const execution = await getExecution(message, message.executionId);
  if (!execution || execution.status === 'completed' || execution.status === 'failed' || message.step !== execution.stepIndex) return { outcome: 'skipped' };
  // Its contact was erased: nothing more runs, and nothing is raised under it.
  if (!isLive(execution)) return { outcome: 'skipped' };
  const now = clock.now();
  if (message.notBefore > now) {
    // A long wait travels as a chain of hops no longer than the queue's delay.
    await enqueueStep(message);
    return { outcome: 'deferred' };
  }
  await markRunning(execution);
  // Validated by automation-steps.ts when the automation was created, copied at trigger.
  const step = execution.steps[message.step] as AutomationStep;
  try {
    const detail = await perform(execution, step, message.step);
    const next = message.step + 1;
    const done = next >= execution.steps.length;
    const runAt = step.type === 'wait' ? now + step.seconds * 1000 : now;
    const outcome: StepOutcome = { step: message.step, type: step.type, status: 'done', at: new Date(now).toISOString(), detail };
    const end = done ? executionEndEvent(execution, { status: 'completed' }) : undefined;
    const advanced = await advanceExecution(execution, message.step, outcome, done ? { status: 'completed' } : { status: 'running', runAt }, end);
    if (advanced.moved && !done) await dispatch(execution, next, runAt);
    if (advanced.events) await handOffEvents(advanced.events);
    return { outcome: done ? 'completed' : 'done' };
  } catch (error) {
    const permanent = error instanceof StepFailure || (error instanceof AppError && error.isCallerFault);
    if (!permanent && receiveCount < MAX_RECEIVES) throw error;
    const reason = `Step ${message.step + 1} (${step.type}) failed: ${error instanceof AppError || error instanceof StepFailure ? error.message : 'an internal error persisted after retries'}`;
    const outcome: StepOutcome = { step: message.step, type: step.type, status: 'failed', at: new Date(now).toISOString(), error: reason };
    const end = executionEndEvent(execution, { status: 'failed', failedStep: message.step + 1, reason });
    const failed = await advanceExecution(execution, message.step, outcome, { status: 'failed', error: reason }, end);
    if (failed.events) await handOffEvents(failed.events);
    // The reason names the contact's number: it stays in the execution record, out of the logs.
    logger.warn('automation step failed', {
      executionId: execution.id,
      step: message.step,
      error: error instanceof AppError ? error.code : (error as Error).name,
    });
    if (!permanent) throw error;
    return { outcome: 'failed' };
  }
}

async function perform(execution: LiveExecution, step: AutomationStep, index: number): Promise<Record<string, unknown>> {
  const scope = { workspaceId: execution.workspaceId, channelId: execution.channelId, sender: 'automation' as const };
  const apiReference = `${RESERVED_API_REFERENCE_PREFIX}${execution.id}:${index}`;
  switch (step.type) {
    case 'send_template': {
      const contact = await requireContact(execution);
      const answer = await sendOnce(execution, apiReference, () =>
        sendTemplateMessage(scope, {
          to: execution.phone,
          templateName: step.templateName,
          languageCode: step.languageCode,
          bodyVariables: step.variables?.map((variable, i) => renderFilled(variable, contact, `variable ${i + 1}`)),
          variablesFrom: 'variables',
          header: step.header === undefined ? undefined : renderFilled(step.header, contact, 'header'),
          apiReference,
        }),
      );
      return { chatmid: answer?.chatmid ?? null };
    }
    case 'send_text':
    case 'send_interactive': {
      const contact = await requireContact(execution);
      const answer = await sendOnce(execution, apiReference, () =>
        sendRegularMessage(scope, { to: execution.phone, ...sessionMessageOf(step, contact), apiReference }),
      );
      return { chatmid: answer?.chatmid ?? null };
    }
    case 'add_labels':
    case 'remove_labels': {
      const contact = await requireContact(execution);
      const { labels } = await listDefinitions(execution);
      const ids = step.labels.map((name) => {
        const label = labels.find((candidate) => matchKey(candidate.name) === matchKey(name));
        if (!label) throw new StepFailure(`label "${name}" does not exist in this channel`);
        return label.id;
      });
      const current = contact.labelIds ?? [];
      const labelIds = step.type === 'add_labels' ? [...new Set([...current, ...ids])] : current.filter((id) => !ids.includes(id));
      await updateContact(execution, execution.phone, { labelIds });
      return { labels: step.labels };
    }
    case 'set_custom_fields': {
      const { labels, fields } = await listDefinitions(execution);
      let values;
      try {
        values = validateCustomFieldValues(step.fields, fields, labels);
      } catch (error) {
        throw new StepFailure((error as Error).message);
      }
      await updateContact(execution, execution.phone, { customFields: values });
      return { fields: Object.keys(values) };
    }
    case 'wait':
      return { seconds: step.seconds };
  }
}

/**
 * A step's text with the contact's values filled in. Blank is refused here, with a reason
 * that says how to fix the automation: the API and the chat network refuse an empty
 * parameter, and a send must not depend on which of them says so.
 */
/** What a send_text or send_interactive step sends; placeholders are filled in the text and in an interactive body. */
function sessionMessageOf(step: Extract<AutomationStep, { type: 'send_text' | 'send_interactive' }>, contact: ContactRecord) {
  if (step.type === 'send_text') return { type: 'text' as const, body: renderFilled(step.body, contact, 'body') };
  const text = renderFilled(step.interactive.body.text, contact, 'interactive.body.text');
  return { type: 'interactive' as const, interactive: { ...step.interactive, body: { text } } };
}

function renderFilled(text: string, contact: ContactRecord, what: string): string {
  const rendered = renderPlaceholders(text, contact);
  if (rendered.trim() === '') {
    throw new StepFailure(`${what} (${text}) renders empty for this contact; give the contact that value, or write a fallback such as {{contact.name|there}}`);
  }
  return rendered;
}

async function requireContact(execution: LiveExecution): Promise<ContactRecord> {
  const contact = await getContact(execution, execution.phone);
  if (!contact) throw new StepFailure('the contact no longer exists');
  return contact;
}

/**
 * Sends a step's message at most once. A redelivered step whose send already happened
 * replays the first answer; if the contact changed since (other rendered variables),
 * the reference reports a conflict, which also means the step's message was sent.
 * Both readings hold only for a claim the runner made itself (`owner: automation`):
 * a replay or a conflict from anyone else's claim on the reference (callers cannot
 * use the prefix; a claim from before it was reserved could exist) fails the step
 * instead of reporting a send that never happened.
 */
async function sendOnce(execution: LiveExecution, apiReference: string, send: () => Promise<SendAnswer>): Promise<Record<string, unknown> | undefined> {
  let answer: SendAnswer | undefined;
  try {
    answer = await send();
    if (!answer.replayed) return answer.data;
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
  }
  const claim = await getReference({ workspaceId: execution.workspaceId, channelId: execution.channelId }, execution.phone, apiReference);
  if (claim?.owner !== 'automation') throw new StepFailure(`apiReference ${apiReference} is held by a send this automation did not make; nothing was sent`);
  return answer?.data;
}
