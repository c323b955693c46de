import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { TtlCache } from './ttl-cache';

/**
 * Secrets Manager secrets read at run time (channel access tokens, the webhook's secrets,
 * the cursor-signing and suppression keys), each read once and cached per warm container
 * for a few minutes, so a rotated value is picked up without a deploy and no value sits in
 * a function's environment.
 */

const CACHE_MS = 5 * 60_000;
/** Secret id (and version stage) → its string. */
const cache = new TtlCache<string, string>({ maxAgeMs: CACHE_MS, maxEntries: 256 });
let client: SecretsManagerClient | undefined;

/** Created on first use: functions that never read a secret never pay for the client. */
function secretsClient(): SecretsManagerClient {
  client ??= new SecretsManagerClient({});
  return client;
}

/**
 * Reads a secret's string, cached per container; `AWSPREVIOUS` reads the version a rotation
 * replaced, undefined when the secret was never rotated.
 */
export function readSecretString(secretId: string): Promise<string>;
export function readSecretString(secretId: string, versionStage: 'AWSPREVIOUS'): Promise<string | undefined>;
export async function readSecretString(secretId: string, versionStage?: 'AWSPREVIOUS'): Promise<string | undefined> {
  const read = async () => (await secretsClient().send(new GetSecretValueCommand({ SecretId: secretId, VersionStage: versionStage }))).SecretString ?? '';
  if (!versionStage) return cache.get(secretId, read);
  try {
    return await cache.get(`${secretId}#${versionStage}`, read);
  } catch (error) {
    if ((error as Error).name === 'ResourceNotFoundException') return undefined;
    throw error;
  }
}
