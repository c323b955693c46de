import { redriveOutbox } from '../shared/domain/automations';
import { logger } from '../shared/observability/logger';

/**
 * Scheduled every minute: hands the queue every execution step that a crash left
 * in the outbox (recorded, but never enqueued).
 */
export const handler = async (): Promise<{ redriven: number }> => {
  const result = await redriveOutbox();
  if (result.redriven > 0) logger.info('outbox re-driven', result);
  return result;
};
