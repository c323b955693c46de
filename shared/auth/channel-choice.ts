import { ForbiddenError, InvalidInputError } from '../errors';

/**
 * The channel a call works on, from the channels its caller may use (no table read): the
 * given channelId if the caller may use it, else the caller's only channel. A channel id
 * the caller may not use, unknown or of another workspace, is the same 403, so the answer
 * tells nothing about which channels exist. The API (an API key's channels) and the
 * developer portal (the signed-in user's API user's channels) choose alike.
 */
export function chooseChannel(allowed: readonly string[], requested: string | undefined): string {
  if (requested !== undefined) {
    if (!allowed.includes(requested)) throw new ForbiddenError('This API key may not use that channel.', { parameter: 'channelId' });
    return requested;
  }
  if (allowed.length === 1) return allowed[0];
  throw new InvalidInputError(
    allowed.length === 0
      ? 'No channel was found for the user: create a channel or pass channelId.'
      : `No channel was found for the user: this key may use ${allowed.length} channels, so pass channelId.`,
    'channelId',
    'channel_required',
  );
}
