import { AsyncLocalStorage } from 'node:async_hooks';
import { clock } from '../clock';

/**
 * The deadline of the invocation in progress, for outbound calls. A Lambda function is
 * stopped at its timeout: a send still waiting then is never recorded (the gateway
 * answers 5xx and the message stays `pending`). So every outbound call made inside an
 * invocation must end by this deadline: the invocation's remaining time when it
 * started, minus `OUTCOME_MARGIN_MS` left for recording the outcome.
 *
 * Deadlines are on the real clock (`clock.realNow`), not the service's time
 * (`clock.now`), which tests freeze and shift: a Lambda timeout is real time.
 */

/** Time kept back for recording a call's outcome (a few table writes, with the SDK's retries). */
export const OUTCOME_MARGIN_MS = 2_000;

const invocation = new AsyncLocalStorage<{ deadlineMs: number }>();

/** What the deadline is derived from: Lambda's context, or anything that knows the remaining time. */
export interface RemainingTime {
  getRemainingTimeInMillis(): number;
}

/** Runs `work` with the outbound deadline of the invocation `context` belongs to (none without a context). */
export function withInvocationDeadline<T>(context: RemainingTime | undefined, work: () => Promise<T>): Promise<T> {
  const remaining = context?.getRemainingTimeInMillis?.();
  if (typeof remaining !== 'number' || !Number.isFinite(remaining)) return work();
  return invocation.run({ deadlineMs: clock.realNow() + remaining - OUTCOME_MARGIN_MS }, work);
}

/** The deadline (ms since the epoch, real clock) outbound calls must end by, or undefined outside an invocation (CLI, scripts). */
export function outboundDeadline(): number | undefined {
  return invocation.getStore()?.deadlineMs;
}
