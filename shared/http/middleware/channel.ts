import type { ApiRequest } from '../context';
import { InvalidInputError, ForbiddenError } from '../../errors';

/**
 * Resolves the channel a channel-scoped call works on, from the principal alone (no
 * table read): the given channelId if the key may use it, else the key's only channel.
 * A channel id the key may not use, unknown or of another workspace, is the same 403.
 */
export function channelScope() {
  return {
    before: function resolveChannel(request: ApiRequest) {
      const { api } = request.context;
      const allowed = api.principal!.channelIds;
      const requested = (api.input as { channelId?: string } | undefined)?.channelId;
      if (requested !== undefined) {
        if (!allowed.includes(requested)) throw new ForbiddenError('This API key may not use that channel.', { parameter: 'channelId' });
        api.channelId = requested;
        return;
      }
      if (allowed.length === 1) {
        api.channelId = allowed[0];
        return;
      }
      throw new InvalidInputError(
        allowed.length === 0
          ? 'No channel was found for the user: create a channel or pass channelId.'
          : `No channel was found for the user: this key may use ${allowed.length} channels, so pass channelId.`,
        'channelId',
        'channel_required',
      );
    },
  };
}
