import { createHmac } from 'node:crypto';
import { config } from '../config';
import { InternalError } from '../errors';
import type { ChannelRef } from '../identity';

/**
 * The keyed hash under which the channel keeps what must outlive a contact without naming
 * it (suppression records, erasure tombstones): HMAC-SHA256 of the channel and a number
 * under the stage's `SUPPRESSION_KEY`. In AWS, CDK generates the key per stage
 * (infra/data.ts); the local stack and tests use a fixed development key when none is
 * set, and a Lambda without one refuses rather than hash numbers under a known key
 * (phone numbers are few enough to try them all).
 */

const DEVELOPMENT_KEY = 'workspace-api-local-suppression-key';

function hashKey(): string {
  const key = config.suppressionKey();
  if (key) return key;
  if (config.lambdaFunctionName()) throw new InternalError('Numbers cannot be hashed: SUPPRESSION_KEY is not configured.');
  return DEVELOPMENT_KEY;
}

/** The keyed hash of `number` (digits with country code) in the channel. */
export function numberHash(channel: ChannelRef, number: string): string {
  return createHmac('sha256', hashKey()).update(`${channel.channelId}:${number}`).digest('base64url');
}
