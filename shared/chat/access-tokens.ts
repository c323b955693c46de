import { readSecretString } from '../cache/secrets';
import { UpstreamError } from '../errors';

/**
 * A channel's chat-network access token. Locally the channel item holds the token
 * itself (the local store is the secret store); in AWS it holds only the name of a
 * Secrets Manager secret, read once and cached per warm container for a few minutes
 * (so a rotated token is picked up without a deploy).
 */

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
