import type { Principal } from '../auth/principal';
import { getChannels, toChannelView } from '../data/channels';

/** channels/list: the channels the principal's key may use, in one batch read. */
export async function listChannels(principal: Principal): Promise<Array<ReturnType<typeof toChannelView>>> {
  const channels = await getChannels(principal.workspaceId, principal.channelIds);
  return channels.map(toChannelView);
}
