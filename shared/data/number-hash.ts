import { createHmac } from 'node:crypto';
import { readSecretString } from '../cache/secrets';
import { config } from '../config';
import { InternalError } from '../errors';
import type { ChannelRef } from '../identity';

/**
 * The keyed hash under which the channel keeps what must outlive a contact without naming
 * it (suppression records, erasure tombstones): HMAC-SHA256 of the channel and a number
 * under the stage's suppression key. In AWS, CDK generates the key per stage
 * (infra/data.ts) and every function that hashes numbers reads it at run time
 * (SUPPRESSION_KEY_SECRET_ARN, cached per container: shared/cache/secrets.ts), never from
 * its environment, which lambda:GetFunctionConfiguration shows in plain text. The local
 * stack and tests use SUPPRESSION_KEY, else a fixed development key; a Lambda without a key
 * refuses rather than hash numbers under a known one (phone numbers are few enough to try
 * them all).
 *
 * Rotation: a hash cannot be re-keyed (the number is not kept), so records are written
 * under the current key and looked up under it and under the version a rotation replaced
 * (AWSPREVIOUS). A record written before the previous rotation is no longer found after
 * the next one: docs/DEPLOYMENT.md, "Rotating the suppression key", says what that costs.
 */

const DEVELOPMENT_KEY = 'workspace-api-local-suppression-key';

/** Hashes numbers under the keys read once for the call (sync, so a batch of lookups reads the secret once). */
export interface NumberHasher {
  /** The hash a record of `number` (digits with country code) is written under: the current key's. */
  current(channel: ChannelRef, number: string): string;
  /** Every hash a record of `number` may be under: the current key's, then the replaced key's while there is one. */
  all(channel: ChannelRef, number: string): string[];
}

async function hashKeys(): Promise<string[]> {
  const secret = config.suppressionKeySecretArn();
  if (secret) {
    const [current, previous] = await Promise.all([readSecretString(secret), readSecretString(secret, 'AWSPREVIOUS')]);
    if (!current) throw new InternalError('Numbers cannot be hashed: the suppression key’s secret is empty.');
    return previous && previous !== current ? [current, previous] : [current];
  }
  const key = config.suppressionKey();
  if (key) return [key];
  if (config.lambdaFunctionName()) throw new InternalError('Numbers cannot be hashed: the suppression key is not configured.');
  return [DEVELOPMENT_KEY];
}

const hmac = (key: string, channel: ChannelRef, number: string) => createHmac('sha256', key).update(`${channel.channelId}:${number}`).digest('base64url');

export async function numberHasher(): Promise<NumberHasher> {
  const keys = await hashKeys();
  return {
    current: (channel, number) => hmac(keys[0], channel, number),
    all: (channel, number) => keys.map((key) => hmac(key, channel, number)),
  };
}
