import { sweepExpiredContent } from '../shared/domain/retention-sweep';
import { logger } from '../shared/observability/logger';

/**
 * Scheduled every hour: blanks the contents of messages older than
 * `MESSAGE_CONTENT_RETENTION_DAYS` (shared/domain/retention.ts); chat/messages/list
 * and chat/message/status already hide them from the moment the period ends.
 */
export const handler = async (): Promise<{ blanked: number; retentionDays: number | null }> => {
  const result = await sweepExpiredContent();
  if (result.blanked > 0) logger.info('message contents blanked (retention)', result);
  return result;
};
