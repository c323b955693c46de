import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { TtlCache } from '../cache/ttl-cache';
import { UpstreamError } from '../errors';

/**
 * A channel's chat-network access token. Locally the channel item holds the token
 * itself (the local store is the secret store); in AWS it holds only the name of a
 * Secrets Manager secret, read once and cached per warm container for a few minutes
 * (so a rotated token is picked up without a deploy).
 */

const CACHE_MS = 5 * 60_000;
/** Secret id (and version stage) → its string (access tokens, the webhook's secrets and the cursor key alike). */
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

/** The Bearer token for the channel's chat-network calls; a 502 when the channel has none. */
/** What a channel holds about its token: the token itself (locally) or its secret's name (AWS). */
export interface ChannelTokenSource {
  id: string;
  accessToken?: string;
  accessTokenSecret?: string;
}

export async function accessTokenFor(channel: ChannelTokenSource): Promise<string> {
  if (channel.accessToken) return channel.accessToken;
  if (channel.accessTokenSecret) {
    const raw = (await readSecretString(channel.accessTokenSecret)).trim();
    // The secret is the token itself, or JSON holding it as accessToken.
    const token = raw.startsWith('{') ? String((JSON.parse(raw) as { accessToken?: unknown }).accessToken ?? '') : raw;
    if (token) return token;
  }
  throw new UpstreamError(`Channel ${channel.id} has no chat-network access token configured; an operator must set it.`);
}
