import type { Context } from 'aws-lambda';
import { drainInbound, type DrainResult } from '../shared/domain/inbound-drain';
import { logger } from '../shared/observability/logger';

/**
 * Scheduled (routes.ts `inboundDrain`): processes the parts of large chat-network
 * webhooks that the webhook handed off (shared/domain/inbound-drain.ts), every shard
 * until done or near the invocation's deadline.
 */
export const handler = async (_event?: unknown, context?: Pick<Context, 'getRemainingTimeInMillis'>): Promise<DrainResult> => {
  const result = await drainInbound(context ? () => context.getRemainingTimeInMillis() : undefined);
  if (result.parts > 0 || !result.done) logger.info('handed-off webhook events processed', { ...result });
  return result;
};
