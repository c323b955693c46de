import { chooseChannel } from '../../auth/channel-choice';
import type { ApiRequest } from '../context';

/**
 * Resolves the channel a channel-scoped call works on, from the principal alone (no
 * table read): the given channelId if the key may use it, else the key's only channel
 * (shared/auth/channel-choice.ts).
 */
export function channelScope() {
  return {
    before: function resolveChannel(request: ApiRequest) {
      const { api } = request.context;
      api.channelId = chooseChannel(api.principal!.channelIds, (api.input as { channelId?: string } | undefined)?.channelId);
    },
  };
}
