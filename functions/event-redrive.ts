import type { Context } from 'aws-lambda';
import { clock } from '../shared/clock';
import { sweepLanes } from '../shared/domain/event-delivery';
import { redriveEvents } from '../shared/domain/events';
import { logger } from '../shared/observability/logger';
import { recordEventOutboxAge } from '../shared/observability/metrics';
import { outboundDeadline, withInvocationDeadline } from '../shared/outbound/deadline';

/**
 * Scheduled every minute, within the invocation's deadline: hands the event queue every
 * event that a crash or a failed hand-off left in the outbox (recorded with its state
 * change, but never handed over or never recorded), records the age of the oldest due
 * item (metric `EventOutboxOldestDueAge`, alarm `EventOutboxAge`), then wakes every
 * delivery lane past its time (a lost wake-up, or a long retry wait that has ended).
 */
export const handler = (_event?: unknown, context?: Context) =>
  withInvocationDeadline(context, async () => {
    const deadline = outboundDeadline();
    const timeLeft = () => deadline === undefined || clock.realNow() < deadline;
    const redrive = await redriveEvents(clock.now(), timeLeft);
    recordEventOutboxAge(redrive.oldestDueAgeMs);
    const lanes = await sweepLanes(clock.now(), timeLeft);
    const result = { ...redrive, lanesWoken: lanes.woken, complete: redrive.complete && lanes.complete };
    if (result.redriven > 0 || result.parked > 0 || result.lanesWoken > 0 || !result.complete) logger.info('event outbox re-driven', result);
    return result;
  });
