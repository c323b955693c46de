import { clock } from '../shared/clock';
import { redriveEvents } from '../shared/domain/events';
import { logger } from '../shared/observability/logger';

/**
 * Scheduled every minute: hands the event queue every event that a crash left in the
 * outbox (recorded with its state change, but never handed over or never recorded).
 */
export const handler = async (): Promise<{ redriven: number }> => {
  const result = await redriveEvents(clock.now());
  if (result.redriven > 0) logger.info('event outbox re-driven', result);
  return result;
};
