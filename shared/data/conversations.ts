import { clock } from '../clock';
import { newId } from '../ids';
import { deleteItem, getItem, putIfAbsent, update, when } from './client';
import { keys } from './keys';
import type { ChannelRef } from '../identity';

/**
 * Conversations (one per contact and channel) and the `wa_id` → phone map. Every
 * write here is a single-item update that converges under concurrency and repetition:
 * webhooks arrive at least once and out of order.
 */

export interface ConversationRecord {
  id: string;
  contactId: string;
  phone: string;
  createdAt: string;
  /** When the contact last wrote (ms since the epoch): the 24-hour session window starts here. */
  lastInboundAt?: number;
  lastOutboundAt?: number;
  /** Outbound messages whose send outcome is unknown, waiting for a status webhook to settle them. */
  unsettledMessageIds?: Set<string>;
}

/** Reads a conversation (consistent: a just-received inbound message must open the window). */
export async function getConversation(channel: ChannelRef, phone: string): Promise<ConversationRecord | undefined> {
  return getItem<ConversationRecord>(keys.conversation(channel, phone), { consistent: true });
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
    .set('entity', 'conversation')
    .set('lastOutboundAt', touch.outboundAt)
    .sendReturning<ConversationRecord>();
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

/** Remembers an outbound message whose send outcome is unknown, for a later status webhook to settle. */
export async function addUnsettledMessage(channel: ChannelRef, phone: string, messageId: string): Promise<void> {
  await update(keys.conversation(channel, phone))
    .add('unsettledMessageIds', new Set([messageId]))
    .send();
}

/** Forgets a settled message (idempotent). */
export async function removeUnsettledMessage(channel: ChannelRef, phone: string, messageId: string): Promise<void> {
  await update(keys.conversation(channel, phone))
    .deleteFromSet('unsettledMessageIds', new Set([messageId]))
    .send();
}

/** The phone a `wa_id` was first seen for in this channel, if any. */
export async function phoneOfWaId(channel: ChannelRef, waId: string): Promise<string | undefined> {
  return (await getItem<{ phone: string }>(keys.waId(channel, waId), { consistent: true }))?.phone;
}

/**
 * Maps a `wa_id` to a contact's phone unless it is already mapped: the first
 * mapping wins, so a later rewrite can never split or move a contact.
 */
export async function rememberWaId(channel: ChannelRef, waId: string, phone: string): Promise<void> {
  await putIfAbsent({ ...keys.waId(channel, waId), entity: 'waId', waId, phone });
}

/** Deletes a contact's conversation (erasure). */
export async function deleteConversation(channel: ChannelRef, phone: string): Promise<void> {
  await deleteItem(keys.conversation(channel, phone));
}
