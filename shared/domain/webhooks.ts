import { createHash } from 'node:crypto';
import { inboundMediaOf } from '../chat/inbound-content';
import type { ChatWebhookEvent, InboundEvent, StatusEvent } from '../chat/webhook-payload';
import { TtlCache } from '../cache/ttl-cache';
import { clock } from '../clock';
import { getChannelPointer } from '../data/channels';
import { ensureContact } from '../data/contacts';
import { ensureConversation, getConversation, phoneOfWaId, recordInboundAt, rememberWaId, removeUnsettledMessage } from '../data/conversations';
import {
  applyStatus,
  createChatmidRecord,
  getChatmidRecord,
  getMessage,
  namesItsContact,
  putInboundMessageOnce,
  recordAcceptedSend,
  settleReference,
  STATUS_RANK,
  type ChatmidRecord,
  type MessageContent,
  type MessageRecord,
} from '../data/messages';
import { logger } from '../observability/logger';
import { countWebhookStatusMismatch } from '../observability/metrics';
import { maskPhone, normalizePhone } from '../phone/phone';
import { handOffEvents } from './events';
import { receivedEvent, statusEvent } from './event-builders';
import { queueMediaFetch } from './media';
import { answerFor } from './messaging';
import { keywordChangeId, keywordStatus, recordContactStatus } from './opt-out';
import { retentionAttributes } from './retention';
import type { ChannelRef } from '../identity';

/**
 * What the chat network's webhooks change. Deliveries come at least once and out of
 * order, so every step is an idempotent single-item write with a forward-only
 * condition; processing a delivery twice, or its events in any order, ends in the
 * same records.
 */
export async function processWebhookEvents(events: ChatWebhookEvent[]): Promise<void> {
  for (const event of events) {
    if (event.kind === 'status') await processStatus(event);
    else await processInbound(event);
  }
}

/** Phone-number id → channel, cached per warm container for its life (a number never moves to another channel); unknown numbers are not kept. */
const channelCache = new TtlCache<string, ChannelRef | undefined>({ maxAgeMs: Infinity, maxEntries: 1_000, keep: (channel) => channel !== undefined });

/** The channel a webhook's phone-number id belongs to. */
function channelOfNumber(phoneNumberId: string): Promise<ChannelRef | undefined> {
  return channelCache.get(phoneNumberId, () => getChannelPointer(phoneNumberId));
}

/** The contact phone of a chat-network id: the number it was first seen for, else the id itself. */
async function phoneOf(channel: ChannelRef, waId: string): Promise<string> {
  return (await phoneOfWaId(channel, waId)) ?? normalizePhone(waId) ?? waId;
}

async function processStatus(event: StatusEvent): Promise<void> {
  const change = { chatmid: event.chatmid, status: event.status, timestamp: event.timestamp, error: event.error, phoneNumberId: event.phoneNumberId };
  const pending = statusEvent(event);
  let result = await applyStatus(change, pending);
  // A pointer from before phone-number ids were recorded: the number's channel (cached lookup) decides.
  while (result.outcome === 'unattributed')
    result = await applyStatus(change, pending, { pointer: result.record, owner: await channelOfNumber(event.phoneNumberId) });
  if (result.outcome === 'mismatch') {
    // A signed status naming a message of another phone number (another channel or tenant): never applied.
    countWebhookStatusMismatch();
    logger.warn('status ignored: the message belongs to another phone number', {
      chatmid: event.chatmid,
      phoneNumberId: event.phoneNumberId,
      status: event.status,
    });
    return;
  }
  if (result.outcome === 'applied' && result.events) await handOffEvents(result.events);
  // A status for a chatmid no send has attached: perhaps the send whose outcome was unknown.
  if (result.outcome === 'applied' && !result.record.workspaceId) await settleUnknownSend(event);
}

/**
 * A send that timed out (or got a 5xx) may still have gone out. When a status
 * arrives for a chatmid we do not know, from the same channel and recipient as such
 * a send, the oldest unsettled send to that recipient takes the chatmid.
 */
async function settleUnknownSend(event: StatusEvent): Promise<void> {
  const channel = await channelOfNumber(event.phoneNumberId);
  if (!channel || !event.recipientId) return;
  const phone = await phoneOf(channel, event.recipientId);
  const unsettled = [...((await getConversation(channel, phone))?.unsettledMessageIds ?? [])];
  if (unsettled.length === 0) return;
  const messages = (await Promise.all(unsettled.map((id) => getMessage(channel, id))))
    // A message erased meanwhile names no contact to settle.
    .filter(namesItsContact)
    .filter((message) => message.sendState === 'unknown')
    .sort((a, b) => a.at - b.at);
  const message = messages[0];
  const attached = message && (await recordAcceptedSend(channel, message, { chatmid: event.chatmid, phoneNumberId: event.phoneNumberId }, 'unknown'));
  if (!message || !attached) return;
  if (attached.events) await handOffEvents(attached.events);
  await removeUnsettledMessage(channel, phone, message.id);
  if (message.apiReference) {
    await settleReference(channel, phone, message.apiReference, message.id, { state: 'done', answer: answerFor(message, event.chatmid) }, 'unknown');
  }
  logger.info('settled a send of unknown outcome by webhook', { messageId: message.id, chatmid: event.chatmid });
}

/**
 * An inbound message: creates the contact and the conversation when missing, moves
 * the conversation's last-inbound time forward (the 24-hour session window), and
 * records the message. The chatmid pointer is written last, so its presence means
 * the delivery was fully processed.
 */
async function processInbound(event: InboundEvent): Promise<void> {
  const channel = await channelOfNumber(event.phoneNumberId);
  if (!channel) {
    logger.warn('inbound message for an unknown phone-number id', { phoneNumberId: event.phoneNumberId });
    return;
  }
  if (await getChatmidRecord(event.chatmid)) return;
  const phone = await phoneOf(channel, event.waId);
  // The WhatsApp profile name only names a new contact; it never overwrites a name given through the API.
  const contact = await ensureContact(channel, phone, { waId: event.waId }, { name: event.profileName });
  const conversation = await ensureConversation(channel, phone, contact.contact.id);
  const at = Math.min(event.timestamp, clock.now());
  await recordInboundAt(channel, phone, at);
  await rememberWaId(channel, event.waId, phone);
  const messageId = `msg_in_${createHash('sha256').update(event.chatmid).digest('base64url').slice(0, 22)}`;
  // Meta's times are whole seconds: within its second a message is placed by when it arrived, so the history keeps the order of arrival.
  const receivedAt = Math.max(at, Math.min(clock.now(), event.timestamp + 999));
  const content = event.content as MessageContent;
  const now = clock.nowIso();
  const message: MessageRecord = {
    id: messageId,
    direction: 'inbound',
    type: event.type,
    content,
    phone,
    contactId: contact.contact.id,
    conversationId: conversation.id,
    sendState: 'received',
    chatmid: event.chatmid,
    waId: event.waId,
    at: receivedAt,
    createdAt: now,
    updatedAt: now,
  };
  // A repeated delivery (a crash before the pointer) finds the message and keeps its time: its history entry and audit record land where the first ones did.
  const stored = await putInboundMessageOnce(channel, message, retentionAttributes(messageId, receivedAt));
  const received = receivedEvent(event, {
    channelId: channel.channelId,
    messageId,
    conversationId: conversation.id,
    contact: { id: contact.contact.id, phone, name: contact.contact.name ?? null },
    content: event.content,
    at: stored.at,
  });
  // A keyword's opt-out (or opt-in) is written before the pointer (whose presence means the delivery is done), but
  // its event sorts after the message's own and is handed over after it: cause before effect, in the log and the lane.
  const optIn = event.type === 'text' ? keywordStatus(event.text) : undefined;
  const statusChange =
    optIn === undefined
      ? undefined
      : await recordContactStatus(
          channel,
          contact.contact,
          { status: optIn, source: 'keyword', at: stored.at, keyword: event.text!.trim(), chatmid: event.chatmid },
          keywordChangeId(event.chatmid),
          received.id,
        );
  // Before the pointer: a failed hand-off fails the delivery, and the chat network's redelivery queues the fetch again.
  const media = inboundMediaOf(event.type, event.content);
  if (media) await queueMediaFetch(channel, { ...media, messageId, phone, type: event.type });
  const chatmidRecord: ChatmidRecord = {
    chatmid: event.chatmid,
    workspaceId: channel.workspaceId,
    channelId: channel.channelId,
    messageId,
    direction: 'inbound',
    type: event.type,
    content,
    phone,
    at: stored.at,
    status: 'received',
    statusRank: STATUS_RANK.received,
    phoneNumberId: event.phoneNumberId,
    receivedEventId: received.id,
  };
  const created = await createChatmidRecord(chatmidRecord, received);
  if (created.events) await handOffEvents(created.events);
  if (statusChange?.events) await handOffEvents(statusChange.events);
  logger.info('inbound message recorded', { channelId: channel.channelId, from: maskPhone(phone), chatmid: event.chatmid });
}
