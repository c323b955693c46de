import { clock } from '../clock';
import { ConflictError } from '../errors';
import { newId } from '../ids';
import { batchGetAll } from './batch';
import { deleteItem, getItem, putIfAbsent, putItem, putNew } from './client';
import { keys } from './keys';
import type { ChannelRef } from '../identity';

export interface ChannelRecord {
  id: string;
  workspaceId: string;
  name: string;
  phoneNumberId: string;
  displayPhoneNumber?: string;
  wabaId?: string;
  isActive: boolean;
  ownerUserId: string;
  /** Where the chat network access token lives: a Secrets Manager secret name in AWS. */
  accessTokenSecret?: string;
  /** Local stack only: the sandbox token itself (the local store is the secret store). */
  accessToken?: string;
  createdAt: string;
}

/** The channel a record is (its workspace and id). */
export function channelRefOf(channel: Pick<ChannelRecord, 'workspaceId' | 'id'>): ChannelRef {
  return { workspaceId: channel.workspaceId, channelId: channel.id };
}

/** The public view of a channel (channels/list). */
export function toChannelView(channel: ChannelRecord) {
  return { id: channel.id, name: channel.name, phoneNumberId: channel.phoneNumberId, isActive: channel.isActive };
}

/**
 * Creates a channel. The phone-number id pointer is claimed first with a condition,
 * so a number can belong to one channel only; if writing the channel then fails,
 * the claim is released.
 */
export async function createChannel(input: Omit<ChannelRecord, 'id' | 'createdAt' | 'isActive'> & { id?: string }): Promise<ChannelRecord> {
  const channel: ChannelRecord = { ...input, id: input.id ?? newId('ch'), isActive: true, createdAt: clock.nowIso() };
  const numberClaim = await putIfAbsent({
    ...keys.channelByPhoneNumberId(channel.phoneNumberId),
    entity: 'phoneNumberPointer',
    workspaceId: channel.workspaceId,
    channelId: channel.id,
  });
  if (numberClaim === 'existing') throw new ConflictError(`Phone-number id ${channel.phoneNumberId} is already used by a channel.`);
  try {
    await putNew({ ...keys.channelById(channel.id), entity: 'channelPointer', workspaceId: channel.workspaceId, channelId: channel.id });
    await putItem({ ...keys.channel(channelRefOf(channel)), entity: 'channel', ...channel });
  } catch (error) {
    // Release the phone number so the operator can retry; the id pointer alone names no channel.
    await deleteItem(keys.channelByPhoneNumberId(channel.phoneNumberId));
    throw error;
  }
  return channel;
}

/** Reads a channel (eventually consistent). */
export async function getChannel(channel: ChannelRef): Promise<ChannelRecord | undefined> {
  return getItem<ChannelRecord>(keys.channel(channel));
}

/** Resolves a phone-number id (webhooks) to its channel's tenant, via its pointer item. */
export async function getChannelPointer(phoneNumberId: string): Promise<ChannelRef | undefined> {
  const pointer = await getItem<ChannelRef>(keys.channelByPhoneNumberId(phoneNumberId));
  return pointer ? { workspaceId: pointer.workspaceId, channelId: pointer.channelId } : undefined;
}

/** Finds a channel by its id alone (operator commands), via its pointer item. */
export async function findChannelById(channelId: string): Promise<ChannelRecord | undefined> {
  const pointer = await getItem<{ workspaceId: string }>(keys.channelById(channelId));
  return pointer ? getChannel({ workspaceId: pointer.workspaceId, channelId }) : undefined;
}

/** Reads the given channels of one workspace (one BatchGet call per 100 ids), ordered by name. */
export async function getChannels(workspaceId: string, channelIds: string[]): Promise<ChannelRecord[]> {
  const found = await batchGetAll<ChannelRecord>(channelIds.map((channelId) => keys.channel({ workspaceId, channelId })));
  return found.sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}
