import * as v from 'valibot';
import type { Principal } from '../auth/principal';
import { ChannelItem, getChannels, type ChannelRecord } from '../data/channels';
import { described } from '../schema/docs';
import { component, viewOf } from '../schema/responses';

/** A channel as channels/list shows it. */
export const Channel = component(
  'Channel',
  v.strictObject({
    id: described(ChannelItem.entries.id, 'Channel id; pass it as channelId', 'ch_demoacmesupport'),
    name: described(ChannelItem.entries.name, 'Display name', 'Acme Support'),
    phoneNumberId: described(ChannelItem.entries.phoneNumberId, 'Id of the business phone number on the chat network', '100000000000001'),
    isActive: described(ChannelItem.entries.isActive, 'Whether the channel is active', true),
  }),
);

/** The public view of a channel (channels/list, the operator CLI). */
export const toChannelView = (channel: ChannelRecord): v.InferOutput<typeof Channel> => viewOf(Channel, channel);

/** channels/list: the channels the principal's key may use, in one batch read. */
export async function listChannels(principal: Principal): Promise<v.InferOutput<typeof Channel>[]> {
  const channels = await getChannels(principal.workspaceId, principal.channelIds);
  return channels.map(toChannelView);
}
