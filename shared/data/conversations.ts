import * as v from 'valibot';
import { clock } from '../clock';
import { newId } from '../ids';
import { deleteItem, getItem, putIfAbsent, update, when } from './client';
import { entity, tagged, type Attributes } from './entity';
import { keys } from './keys';
import type { ChannelRef } from '../identity';

/**
 * Conversations (one per contact and channel) and the `wa_id` → phone map. Every
 * write here is a single-item update that converges under concurrency and repetition:
 * webhooks arrive at least once and out of order.
 */

/** A contact's conversation in the channel, one per contact (by phone). */
export const ConversationItem = entity('conversation', {
  id: v.string(),
  contactId: v.string(),
  phone: v.string(),
  createdAt: v.string(),
  /** When the contact last wrote (ms since the epoch): the 24-hour session window starts here. */
  lastInboundAt: v.optional(v.number()),
  lastOutboundAt: v.optional(v.number()),
  /** Outbound messages whose send outcome is unknown, waiting for a status webhook to settle them (a string set). */
  unsettledMessageIds: v.optional(v.set(v.string())),
});
export type ConversationRecord = Attributes<typeof ConversationItem>;

/** A `wa_id` the chat network reported for a contact → its phone, the first mapping kept. */
export const WaIdItem = entity('waId', { waId: v.string(), phone: v.string() });

/** Reads a conversation (consistent: a just-received inbound message must open the window). */
export async function getConversation(channel: ChannelRef, phone: string): Promise<ConversationRecord | undefined> {
  return getItem(keys.conversation(channel, phone), ConversationItem, { consistent: true });
}

/**
 * Creates the conversation of a contact unless it exists (the first writer's id
 * wins) and returns it. One atomic update: concurrent callers get the same record.
 */
export async function ensureConversation(
  channel: ChannelRef,
  phone: string,
  contactId: string,
  touch: { outboundAt?: number } = {},
): Promise<ConversationRecord> {
  const conversation = await update(keys.conversation(channel, phone))
    .setIfNotExists('id', newId('cv'))
    .setIfNotExists('contactId', contactId)
    .set('phone', phone)
    .setIfNotExists('createdAt', clock.nowIso())
    .set('entity', ConversationItem.tag)
    .set('lastOutboundAt', touch.outboundAt)
    .sendReturning(ConversationItem);
  // Unconditional: only a condition makes the result undefined.
  return conversation!;
}

/**
 * Records an inbound message's time, forward only: an older or repeated webhook
 * never moves the window back. Returns false when a later (or the same) time was
 * already recorded.
 */
export async function recordInboundAt(channel: ChannelRef, phone: string, at: number): Promise<boolean> {
  return update(keys.conversation(channel, phone))
    .set('lastInboundAt', at)
    .when(when.and(when.itemExists(), when.or(when.notExists('lastInboundAt'), when.lt('lastInboundAt', at))))
    .send();
}

/**
 * Remembers an outbound message whose send outcome is unknown, for a later status webhook
 * to settle. Only on the conversation (the send wrote it first): one erased meanwhile stays
 * erased, rather than coming back as a fragment without its id.
 */
export async function addUnsettledMessage(channel: ChannelRef, phone: string, messageId: string): Promise<void> {
  await update(keys.conversation(channel, phone))
    .add('unsettledMessageIds', new Set([messageId]))
    .when(when.itemExists())
    .send();
}

/** Forgets a settled message (idempotent; a conversation erased meanwhile stays erased). */
export async function removeUnsettledMessage(channel: ChannelRef, phone: string, messageId: string): Promise<void> {
  await update(keys.conversation(channel, phone))
    .deleteFromSet('unsettledMessageIds', new Set([messageId]))
    .when(when.itemExists())
    .send();
}

/** The phone a `wa_id` was first seen for in this channel, if any. */
export async function phoneOfWaId(channel: ChannelRef, waId: string): Promise<string | undefined> {
  return (await getItem(keys.waId(channel, waId), WaIdItem, { consistent: true }))?.phone;
}

/**
 * Maps a `wa_id` to a contact's phone unless it is already mapped: the first
 * mapping wins, so a later rewrite can never split or move a contact.
 */
export async function rememberWaId(channel: ChannelRef, waId: string, phone: string): Promise<void> {
  await putIfAbsent(tagged(WaIdItem, keys.waId(channel, waId), { waId, phone }));
}

/** Deletes a contact's conversation (erasure). */
export async function deleteConversation(channel: ChannelRef, phone: string): Promise<void> {
  await deleteItem(keys.conversation(channel, phone));
}
