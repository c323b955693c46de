import type { Context } from 'aws-lambda';
import { clock } from '../shared/clock';
import { redriveEvents } from '../shared/domain/events';
import { logger } from '../shared/observability/logger';
import { recordEventOutboxAge } from '../shared/observability/metrics';
import { outboundDeadline, withInvocationDeadline } from '../shared/outbound/deadline';

/**
 * Scheduled every minute: hands the event queue every event that a crash or a failed
 * hand-off left in the outbox (recorded with its state change, but never handed over or
 * never recorded), within the invocation's deadline; records the age of the oldest due
 * item (metric `EventOutboxOldestDueAge`, alarm `EventOutboxAge`).
 */
export const handler = (_event?: unknown, context?: Context) =>
  withInvocationDeadline(context, async () => {
    const deadline = outboundDeadline();
    const result = await redriveEvents(clock.now(), () => deadline === undefined || clock.realNow() < deadline);
    recordEventOutboxAge(result.oldestDueAgeMs);
    if (result.redriven > 0 || result.parked > 0 || !result.complete) logger.info('event outbox re-driven', result);
    return result;
  });
