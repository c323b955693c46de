import { clock } from '../clock';
import { ConflictError } from '../errors';
import { newId } from '../ids';
import * as v from 'valibot';
import { batchGetAll } from './batch';
import { deleteItem, getItem, putIfAbsent, putItem, putNew } from './client';
import { entity, tagged, type Attributes } from './entity';
import { keys } from './keys';
import type { ChannelRef } from '../identity';

/** A channel: one business phone number of a workspace on the chat network. */
export const ChannelItem = entity('channel', {
  id: v.string(),
  workspaceId: v.string(),
  name: v.string(),
  phoneNumberId: v.string(),
  displayPhoneNumber: v.optional(v.string()),
  wabaId: v.optional(v.string()),
  isActive: v.boolean(),
  ownerUserId: v.string(),
  /** Where the chat network access token lives: a Secrets Manager secret name in AWS. */
  accessTokenSecret: v.optional(v.string()),
  /** Local stack only: the sandbox token itself (the local store is the secret store). */
  accessToken: v.optional(v.string()),
  createdAt: v.string(),
});
export type ChannelRecord = Attributes<typeof ChannelItem>;

/** Pointer item: a channel id → its workspace (operator commands name only the channel). */
const ChannelPointerItem = entity('channelPointer', { workspaceId: v.string(), channelId: v.string() });
/** Pointer item: a chat-network phone-number id → its channel (webhooks; one channel per number). */
const PhoneNumberPointerItem = entity('phoneNumberPointer', { workspaceId: v.string(), channelId: v.string() });

/** The channel a record is (its workspace and id). */
export function channelRefOf(channel: Pick<ChannelRecord, 'workspaceId' | 'id'>): ChannelRef {
  return { workspaceId: channel.workspaceId, channelId: channel.id };
}

/**
 * Creates a channel. The phone-number id pointer is claimed first with a condition,
 * so a number can belong to one channel only; if writing the channel then fails,
 * the claim is released.
 */
export async function createChannel(input: Omit<ChannelRecord, 'id' | 'createdAt' | 'isActive'> & { id?: string }): Promise<ChannelRecord> {
  const channel: ChannelRecord = { ...input, id: input.id ?? newId('ch'), isActive: true, createdAt: clock.nowIso() };
  const numberClaim = await putIfAbsent(
    tagged(PhoneNumberPointerItem, keys.channelByPhoneNumberId(channel.phoneNumberId), { workspaceId: channel.workspaceId, channelId: channel.id }),
  );
  if (numberClaim === 'existing') throw new ConflictError(`Phone-number id ${channel.phoneNumberId} is already used by a channel.`);
  try {
    await putNew(tagged(ChannelPointerItem, keys.channelById(channel.id), { workspaceId: channel.workspaceId, channelId: channel.id }));
    await putItem(tagged(ChannelItem, keys.channel(channelRefOf(channel)), channel));
  } catch (error) {
    // Release the phone number so the operator can retry; the id pointer alone names no channel.
    await deleteItem(keys.channelByPhoneNumberId(channel.phoneNumberId));
    throw error;
  }
  return channel;
}

/** Reads a channel (eventually consistent). */
export async function getChannel(channel: ChannelRef): Promise<ChannelRecord | undefined> {
  return getItem(keys.channel(channel), ChannelItem);
}

/** Resolves a phone-number id (webhooks) to its channel's tenant, via its pointer item. */
export async function getChannelPointer(phoneNumberId: string): Promise<ChannelRef | undefined> {
  const pointer = await getItem(keys.channelByPhoneNumberId(phoneNumberId), PhoneNumberPointerItem);
  return pointer ? { workspaceId: pointer.workspaceId, channelId: pointer.channelId } : undefined;
}

/** Finds a channel by its id alone (operator commands), via its pointer item. */
export async function findChannelById(channelId: string): Promise<ChannelRecord | undefined> {
  const pointer = await getItem(keys.channelById(channelId), ChannelPointerItem);
  return pointer ? getChannel({ workspaceId: pointer.workspaceId, channelId }) : undefined;
}

/** Reads the given channels of one workspace (one BatchGet call per 100 ids), ordered by name. */
export async function getChannels(workspaceId: string, channelIds: string[]): Promise<ChannelRecord[]> {
  const found = await batchGetAll(
    channelIds.map((channelId) => keys.channel({ workspaceId, channelId })),
    ChannelItem,
  );
  return found.sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}
