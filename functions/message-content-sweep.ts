import type { Context } from 'aws-lambda';
import { sweepExpiredContent, type SweepResult } from '../shared/domain/retention-sweep';
import { logger } from '../shared/observability/logger';

/**
 * Scheduled (routes.ts `messageContentSweep`): blanks the contents of messages older than
 * `MESSAGE_CONTENT_RETENTION_DAYS` (shared/domain/retention.ts), every shard until done
 * or near the invocation's deadline; chat/messages/list and chat/message/status already
 * hide them from the moment the period ends.
 */
export const handler = async (_event?: unknown, context?: Pick<Context, 'getRemainingTimeInMillis'>): Promise<SweepResult> => {
  const result = await sweepExpiredContent(context ? () => context.getRemainingTimeInMillis() : undefined);
  if (result.blanked > 0 || !result.done) logger.info('message contents blanked (retention)', { ...result });
  return result;
};
