import * as v from 'valibot';
import { clock } from '../clock';
import { deleteItem, getItem, putIfAbsent, putItem, putNew, update, when } from './client';
import { entity, tagged, type Attributes, type Stored } from './entity';
import { keys } from './keys';
import type { ChannelRef, Key } from '../identity';
import { eventTicket, PendingEvent, pendingEventAttributes, withPendingEvent, type EventTicket } from './event-outbox';

/**
 * Messages, their chatmid pointers and apiReference claims. No transactions (the
 * local store has none): every step is one conditional single-item write, and each
 * record says what is known, so a crash between two steps leaves a visible state
 * instead of a gap. docs/MESSAGING.md describes the lifecycle.
 */

export type MessageType = 'text' | 'image' | 'video' | 'document' | 'audio' | 'template' | (string & {});

/**
 * What a message carried: text, a media link, a template with its variables, the Cloud
 * API's interactive object, a place, or a reaction; `replyTo` is the chatmid it quotes.
 */
export type MessageContent = (
  | { body: string }
  | (({ url: string } | { mediaId: string }) & { caption?: string; filename?: string })
  | { templateName: string; languageCode: string; bodyVariables: string[]; header?: { type: string; text?: string; link?: string } }
  | { type: 'button' | 'list' | 'cta_url'; body: { text: string }; action: object }
  | { latitude: number; longitude: number; name?: string; address?: string }
  | { messageId: string; emoji: string }
  | Record<string, never>
) & { replyTo?: string };

/** Why a send failed, as the chat network said it. */
const MessageError = v.object({ code: v.optional(v.union([v.number(), v.string()])), title: v.optional(v.string()), message: v.string() });
export type MessageError = v.InferOutput<typeof MessageError>;

/**
 * What a message carried, checked as an object and kept as stored: each type has a shape
 * of its own (inbound ones too: docs/MESSAGING.md), which the code that wrote it made.
 */
const Content = v.custom<MessageContent>((value) => value !== null && typeof value === 'object' && !Array.isArray(value), 'a message content object');

/** The send's own progress: intent first, outcome after the chat network answered. */
const SEND_STATES = ['pending', 'accepted', 'failed', 'unknown', 'received'] as const;
export type SendState = (typeof SEND_STATES)[number];

const DIRECTIONS = ['outbound', 'inbound'] as const;

/**
 * A message in its channel's partition. An erasure keeps its skeleton (type, direction,
 * times, send state) and removes what named the contact: those attributes are optional here.
 */
export const MessageItem = entity('message', {
  id: v.string(),
  direction: v.picklist(DIRECTIONS),
  type: v.string() as v.GenericSchema<MessageType>,
  content: v.optional(Content),
  /** The contact's phone (digits with country code). */
  phone: v.optional(v.string()),
  contactId: v.optional(v.string()),
  conversationId: v.optional(v.string()),
  apiReference: v.optional(v.string()),
  sendState: v.picklist(SEND_STATES),
  chatmid: v.optional(v.string()),
  waId: v.optional(v.string()),
  /** Set when the chat network accepted the send under a wa_id that was opted out (shared/domain/messaging.ts `recordIfOptedOut`). */
  sentToOptedOut: v.optional(v.literal(true)),
  error: v.optional(MessageError),
  /** When the message was written (outbound) or received (inbound), ms since the epoch. */
  at: v.number(),
  createdAt: v.string(),
  updatedAt: v.string(),
  /** When the retention sweep or an erasure blanked it, ms since the epoch. */
  contentRemovedAt: v.optional(v.number()),
  erasedAt: v.optional(v.number()),
});

/** A message as written (by a send or an inbound webhook): its contact named (its content, until the retention sweep blanks it). */
export type MessageRecord = Omit<Attributes<typeof MessageItem>, 'contentRemovedAt' | 'erasedAt'> &
  Required<Pick<Attributes<typeof MessageItem>, 'phone' | 'contactId' | 'conversationId'>>;

/** A stored message that still names its contact. */
export type LiveMessage = Stored<typeof MessageItem> & MessageRecord;

/** Whether a stored message still names its contact (an erasure left only its skeleton otherwise). */
export const namesItsContact = (message: Stored<typeof MessageItem> | undefined): message is LiveMessage =>
  message?.phone !== undefined && message.contactId !== undefined && message.conversationId !== undefined;

/** Delivery statuses, forward only; `received` marks inbound messages. */
const DELIVERY_STATUSES = ['accepted', 'sent', 'delivered', 'read', 'failed', 'received'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** The order statuses may move in; `failed` is final and keeps its error. */
export const STATUS_RANK: Record<DeliveryStatus, number> = { accepted: 1, sent: 2, delivered: 3, read: 4, failed: 5, received: 100 };

/** The chatmid pointer: tenant, a copy of what chat/message/status shows, and the delivery status. */
export const ChatmidItem = entity('chatmid', {
  chatmid: v.string(),
  workspaceId: v.optional(v.string()),
  channelId: v.optional(v.string()),
  messageId: v.optional(v.string()),
  direction: v.optional(v.picklist(DIRECTIONS)),
  type: v.optional(v.string() as v.GenericSchema<MessageType>),
  content: v.optional(Content),
  phone: v.optional(v.string()),
  /** Sent (outbound) or received (inbound), ms since the epoch. */
  at: v.optional(v.number()),
  status: v.picklist(DELIVERY_STATUSES),
  statusRank: v.number(),
  sentAt: v.optional(v.number()),
  deliveredAt: v.optional(v.number()),
  readAt: v.optional(v.number()),
  failedAt: v.optional(v.number()),
  error: v.optional(MessageError),
  phoneNumberId: v.optional(v.string()),
  /** The send's apiReference, for its status events. */
  apiReference: v.optional(v.string()),
  /** An inbound message's `message.received` event: the retention sweep blanks the content its log entry carries too. */
  receivedEventId: v.optional(v.string()),
  /** Events recorded with a change of this pointer and not yet in the events log (shared/data/event-outbox.ts). */
  pendingEvents: v.optional(v.array(PendingEvent)),
  /** When a send first attached the pointer (ms): status events recorded before it had no tenant, so no hand-off yet. */
  attachedAt: v.optional(v.number()),
  /** TTL (epoch seconds) of a pointer no send has attached (yet). */
  expiresAt: v.optional(v.number()),
  /** When the retention sweep or an erasure blanked it, ms since the epoch. */
  contentRemovedAt: v.optional(v.number()),
  erasedAt: v.optional(v.number()),
});
export type ChatmidRecord = Omit<Attributes<typeof ChatmidItem>, 'expiresAt' | 'contentRemovedAt' | 'erasedAt'>;

/** Unknown-chatmid status items (sent by other tools, or racing a send) expire after this long unless a send claims them. */
const ORPHAN_TTL_SECONDS = 7 * 24 * 60 * 60;
const epochSeconds = (ms: number) => Math.floor(ms / 1000);

// ---- Messages and their history entries ------------------------------------------------

/**
 * A message's entry in its contact's conversation history (`HIST#<phone>#<time>#<id>`,
 * message-history.ts reads them): what chat/messages/list shows except the delivery
 * status, which lives on the chatmid pointer. Written with its message, by the same
 * functions, so no caller writes one without the other.
 */
export const HistoryItem = entity('history', {
  messageId: v.string(),
  direction: v.picklist(DIRECTIONS),
  type: v.string() as v.GenericSchema<MessageType>,
  /** Absent once blanked (retention); the entry itself goes with an erasure. */
  content: v.optional(Content),
  apiReference: v.optional(v.string()),
  chatmid: v.optional(v.string()),
  sendState: v.picklist(SEND_STATES),
  error: v.optional(MessageError),
  /** Sent or received, ms since the epoch. */
  at: v.number(),
  /** When the content was blanked (retention), ms since the epoch. */
  contentRemovedAt: v.optional(v.number()),
});
export type HistoryEntry = Attributes<typeof HistoryItem>;

const historyKey = (channel: ChannelRef, message: Pick<MessageRecord, 'phone' | 'at' | 'id'>): Key =>
  keys.messageHistory(channel, message.phone, message.at, message.id);

/** Writes a message's history entry (idempotent: a repeated webhook or step writes the same item; the repair writes missing ones). */
export async function putHistoryEntry(
  channel: ChannelRef,
  message: Pick<Stored<typeof MessageItem>, 'id' | 'direction' | 'type' | 'content' | 'apiReference' | 'chatmid' | 'sendState' | 'error' | 'at'> & {
    phone: string;
  },
): Promise<void> {
  const entry: HistoryEntry = {
    messageId: message.id,
    direction: message.direction,
    type: message.type,
    content: message.content,
    apiReference: message.apiReference,
    chatmid: message.chatmid,
    sendState: message.sendState,
    error: message.error,
    at: message.at,
  };
  await putItem(tagged(HistoryItem, historyKey(channel, message), entry));
}

/**
 * Writes an outbound message's intent (state `pending`) and its history entry, before the
 * chat network is called. `extra` are attributes stored beside the message (the
 * retention index entry).
 */
export async function putMessageIntent(channel: ChannelRef, message: MessageRecord, extra: Record<string, unknown> = {}): Promise<void> {
  await putNew({ ...tagged(MessageItem, keys.message(channel, message.id), message), ...extra });
  await putHistoryEntry(channel, message);
}

/**
 * Writes an inbound message unless it exists (its id derives from the chatmid), and its
 * history entry; returns the message as stored: a repeated webhook delivery keeps the
 * first one's time, so its history entry and audit record land on the same keys (a
 * stored message that no longer names this phone, erased meanwhile, gets no entry).
 * `extra` are attributes stored beside it (the retention index entry).
 */
export async function putInboundMessageOnce(
  channel: ChannelRef,
  message: MessageRecord,
  extra: Record<string, unknown> = {},
): Promise<Stored<typeof MessageItem> | MessageRecord> {
  const key = keys.message(channel, message.id);
  const created = (await putIfAbsent({ ...tagged(MessageItem, key, message), ...extra })) === 'created';
  const stored = created ? message : ((await getItem(key, MessageItem, { consistent: true })) ?? message);
  if (stored.phone === message.phone) await putHistoryEntry(channel, { ...stored, phone: message.phone });
  return stored;
}

/** A send's outcome as its message records it. */
export interface SendOutcome {
  sendState: SendState;
  chatmid?: string;
  waId?: string;
  error?: MessageError;
}

/**
 * Records a send's outcome on its message, moving it out of `from` (pending, or unknown
 * when a webhook settles it), then on its history entry. Returns false when the message
 * had already moved (nothing changed).
 */
export async function recordSendOutcome(channel: ChannelRef, message: MessageRecord, outcome: SendOutcome, from: SendState = 'pending'): Promise<boolean> {
  if (!(await moveSendState(channel, message.id, outcome, from))) return false;
  await recordHistoryOutcome(channel, message, outcome);
  return true;
}

/**
 * Records that the chat network accepted a send under `chatmid` (its answer, or a status
 * webhook that settles a send of unknown outcome from `from`): the message's outcome,
 * then its chatmid pointer (status webhooks may already be arriving: {@link attachChatmid}),
 * then its history entry, which learns the chatmid last. Returns the pointer with the
 * ticket of the status events that came before the attach, or undefined when the message
 * had already moved (nothing changed).
 */
export async function recordAcceptedSend(
  channel: ChannelRef,
  message: MessageRecord,
  accepted: { chatmid: string; waId?: string; phoneNumberId: string },
  from: SendState = 'pending',
): Promise<Attached | undefined> {
  const outcome = { sendState: 'accepted' as const, chatmid: accepted.chatmid };
  if (!(await moveSendState(channel, message.id, { ...outcome, waId: accepted.waId }, from))) return undefined;
  const attached = await attachChatmid({
    chatmid: accepted.chatmid,
    workspaceId: channel.workspaceId,
    channelId: channel.channelId,
    messageId: message.id,
    direction: 'outbound',
    type: message.type,
    content: message.content,
    phone: message.phone,
    at: message.at,
    phoneNumberId: accepted.phoneNumberId,
    apiReference: message.apiReference,
  });
  await recordHistoryOutcome(channel, message, outcome);
  return attached;
}

/** The outcome on the message item, only while it is still in `from`. */
async function moveSendState(channel: ChannelRef, messageId: string, outcome: SendOutcome, from: SendState): Promise<boolean> {
  return update(keys.message(channel, messageId))
    .set('sendState', outcome.sendState)
    .set('updatedAt', clock.nowIso())
    .set('chatmid', outcome.chatmid)
    .set('waId', outcome.waId)
    .set('error', outcome.error)
    .when(when.eq('sendState', from))
    .send();
}

/**
 * Copies a send's outcome (chatmid, state, error) onto its history entry. Only an
 * existing entry is changed, so an entry erased meanwhile is not brought back.
 */
async function recordHistoryOutcome(channel: ChannelRef, message: Pick<MessageRecord, 'phone' | 'at' | 'id'>, outcome: SendOutcome): Promise<void> {
  await update(historyKey(channel, message))
    .set('sendState', outcome.sendState)
    .set('chatmid', outcome.chatmid)
    .set('error', outcome.error)
    .when(when.itemExists())
    .send();
}

/** A message as stored (an erased one keeps only its skeleton). */
/** Marks an accepted send whose wa_id turned out to be opted out (only a message still there: an erasure's skeleton keeps it). */
export async function markSentToOptedOut(channel: ChannelRef, messageId: string): Promise<void> {
  await update(keys.message(channel, messageId)).set('sentToOptedOut', true).when(when.itemExists()).send();
}

export async function getMessage(channel: ChannelRef, messageId: string): Promise<Stored<typeof MessageItem> | undefined> {
  return getItem(keys.message(channel, messageId), MessageItem, { consistent: true });
}

// ---- Chatmid pointers ------------------------------------------------------------------

/** The pointer of a chatmid, read consistently: the one read of chat/message/status. */
export async function getChatmidRecord(chatmid: string): Promise<ChatmidRecord | undefined> {
  return getItem(keys.messageByChatmid(chatmid), ChatmidItem, { consistent: true });
}

/**
 * Records that the business marked an inbound message read: `readAt` of its pointer, the
 * first time only (marking again changes nothing). False when the pointer is gone.
 */
export async function recordInboundRead(chatmid: string, at: number): Promise<boolean> {
  return update(keys.messageByChatmid(chatmid)).setIfNotExists('readAt', at).when(when.eq('direction', 'inbound')).send();
}

/** A chatmid pointer after an attach, and the ticket of the status events that came before it (recorded without a tenant, so none was handed over). */
export interface Attached {
  pointer: ChatmidRecord;
  events?: EventTicket;
}

/**
 * Attaches a chatmid to its message: tenant, the channel's phone-number id (statuses
 * apply only when they name it), content, and status `accepted` unless a status
 * webhook got there first (then its later status stays). Safe to repeat; refuses to
 * re-attach a chatmid to another tenant. Returns the pointer after the attach, with the
 * ticket of the status events that came before it and are still pending.
 */
export async function attachChatmid(
  record: Required<Pick<ChatmidRecord, 'chatmid' | 'workspaceId' | 'channelId' | 'messageId' | 'direction' | 'type' | 'phone' | 'at' | 'phoneNumberId'>> &
    Pick<ChatmidRecord, 'content' | 'apiReference'>,
): Promise<Attached> {
  const key = keys.messageByChatmid(record.chatmid);
  // A chatmid of another tenant is an error that propagates.
  const pointer = await update(key)
    .setAll({
      entity: ChatmidItem.tag,
      chatmid: record.chatmid,
      workspaceId: record.workspaceId,
      channelId: record.channelId,
      messageId: record.messageId,
      direction: record.direction,
      type: record.type,
      content: record.content,
      phone: record.phone,
      at: record.at,
      phoneNumberId: record.phoneNumberId,
    })
    .setIfNotExists('status', 'accepted')
    .setIfNotExists('statusRank', STATUS_RANK.accepted)
    .set('apiReference', record.apiReference)
    // Status events that came before the send attached wait in the outbox without a tenant: due for the re-drive from
    // now, and the next status's hand-off carries them first (attachedAt tells them apart, shared/domain/events.ts).
    .set('outboxAt', clock.now())
    .setIfNotExists('attachedAt', clock.now())
    .remove('expiresAt')
    .when(when.or(when.notExists('workspaceId'), when.and(when.eq('workspaceId', record.workspaceId), when.eq('channelId', record.channelId))))
    .sendReturningOrThrow(ChatmidItem);
  return { pointer, events: pointer.pendingEvents?.length ? eventTicket(key, pointer) : undefined };
}

/**
 * Creates a chatmid pointer (an inbound message, or a status ahead of its send), with
 * `event` in the outbox when given: `created` and the ticket of the event's hand-off, or
 * not created when the pointer exists (nothing written).
 */
export async function createChatmidRecord(record: ChatmidRecord, event?: PendingEvent): Promise<{ created: boolean; events?: EventTicket }> {
  const key = keys.messageByChatmid(record.chatmid);
  const item: ChatmidRecord = { ...record, ...(event ? pendingEventAttributes(key, event, clock.now()) : {}) };
  if ((await putIfAbsent(tagged(ChatmidItem, key, item))) === 'existing') return { created: false };
  return { created: true, events: item.pendingEvents?.length ? eventTicket(key, item) : undefined };
}

export interface DeliveryStatusChange {
  chatmid: string;
  status: Exclude<DeliveryStatus, 'accepted' | 'received'>;
  /** When the chat network says it happened, ms since the epoch. */
  timestamp: number;
  error?: MessageError;
  phoneNumberId: string;
}

/**
 * What a status did: moved the pointer (or created it; with the ticket of its event's
 * hand-off), changed nothing (stale), named another phone number's message, or found a
 * pointer from before phone-number ids were recorded (`unattributed`: the number's
 * channel decides, so the caller resolves it and applies the status again with it).
 */
export type StatusResult =
  | { outcome: 'applied'; record: ChatmidRecord; events?: EventTicket }
  | { outcome: 'stale' }
  | { outcome: 'mismatch'; record: ChatmidRecord }
  | { outcome: 'unattributed'; record: ChatmidRecord };

/** An `unattributed` outcome's pointer, and the channel the status's phone-number id belongs to (undefined: none). */
export interface Attribution {
  pointer: ChatmidRecord;
  owner: ChannelRef | undefined;
}

/**
 * Applies a status webhook, forward only (accepted → sent → delivered → read;
 * failed is final), and only to a message of the phone number the status names
 * (`metadata.phone_number_id`): one conditional update on both, so repeats, late
 * arrivals and another number's statuses change nothing. A status for a chatmid no
 * send has attached yet creates the pointer (the send attaches to it later).
 *
 * Pointers written before the phone-number id was recorded on them have none: for
 * those the number's channel must be the pointer's. The first call answers
 * `unattributed`; called again with the pointer and that channel (`attribution`), the
 * update records the number (and when a concurrent writer came first, it starts over).
 */
export async function applyStatus(change: DeliveryStatusChange, event?: PendingEvent, attribution?: Attribution): Promise<StatusResult> {
  const key = keys.messageByChatmid(change.chatmid);
  const rank = STATUS_RANK[change.status];
  const stamp = ({ sent: 'sentAt', delivered: 'deliveredAt', read: 'readAt', failed: 'failedAt' } as const)[change.status];
  const statusUpdate = () =>
    update(key)
      .set('status', change.status)
      .set('statusRank', rank)
      .setIfNotExists(stamp, change.timestamp)
      // Read implies delivered: a message read at once may never get a delivered event.
      .setIfNotExists('deliveredAt', change.status === 'read' ? change.timestamp : undefined)
      .set('error', change.error);
  // The status's event rides in the same conditional write: no event without the change, no change without it.
  const withEvent = () => (event ? withPendingEvent(statusUpdate(), key, event, clock.now()) : statusUpdate());
  const applied = (record: ChatmidRecord): StatusResult => ({ outcome: 'applied', record, events: event && eventTicket(key, record) });
  const forward = when.and(when.itemExists(), when.lt('statusRank', rank));
  let existing = attribution?.pointer;
  for (;;) {
    if (!existing) {
      // Applied only to a message of the phone number that names it (a condition on the same write).
      const result = await withEvent()
        .when(when.and(forward, when.eq('phoneNumberId', change.phoneNumberId)))
        .sendReturning(ChatmidItem);
      if (result) return applied(result);
      existing = await getChatmidRecord(change.chatmid);
    }
    if (existing) {
      if (existing.phoneNumberId === change.phoneNumberId) return { outcome: 'stale' };
      if (existing.phoneNumberId !== undefined || !existing.workspaceId) return { outcome: 'mismatch', record: existing };
      // A pointer from before phone-number ids were recorded: its channel decides.
      if (!attribution) return { outcome: 'unattributed', record: existing };
      const { owner } = attribution;
      if (owner?.workspaceId !== existing.workspaceId || owner.channelId !== existing.channelId) return { outcome: 'mismatch', record: existing };
      if (existing.statusRank >= rank) return { outcome: 'stale' };
      const legacy = await withEvent()
        .set('phoneNumberId', change.phoneNumberId)
        .when(when.and(forward, when.notExists('phoneNumberId'), when.eq('workspaceId', owner.workspaceId), when.eq('channelId', owner.channelId)))
        .sendReturning(ChatmidItem);
      if (legacy) return applied(legacy);
      // A concurrent writer came first: start over, and the channel is asked again.
      existing = undefined;
      attribution = undefined;
      continue;
    }
    const orphan: ChatmidRecord & { expiresAt: number } = {
      chatmid: change.chatmid,
      status: change.status,
      statusRank: rank,
      [stamp]: change.timestamp,
      ...(change.status === 'read' ? { deliveredAt: change.timestamp } : {}),
      ...(change.error ? { error: change.error } : {}),
      phoneNumberId: change.phoneNumberId,
      expiresAt: epochSeconds(clock.now()) + ORPHAN_TTL_SECONDS,
      ...(event ? pendingEventAttributes(key, event, clock.now()) : {}),
    };
    if ((await createChatmidRecord(orphan)).created) return applied(orphan);
    // A concurrent writer created it: apply the change to theirs.
  }
}

// ---- apiReference claims ---------------------------------------------------------------

/** An apiReference claim of a send (per channel, recipient and reference): what a replay answers. */
const ReferenceItem = entity('apiReference', {
  apiReference: v.string(),
  phone: v.string(),
  fingerprint: v.string(),
  messageId: v.string(),
  state: v.picklist(['pending', 'done', 'unknown']),
  claimedAt: v.number(),
  /** Epoch seconds; compared by the service itself (the local store never expires items). */
  expiresAt: v.number(),
  /** The first answer (a send's `data`). */
  answer: v.optional(v.record(v.string(), v.unknown())),
  /** The first failure, when its outcome is unknown. */
  failure: v.optional(v.object({ code: v.string(), message: v.string(), details: v.optional(v.record(v.string(), v.unknown())) })),
  /** Who claimed it: `automation` for the runner's own sends; absent for callers'. */
  owner: v.optional(v.literal('automation')),
});
/** What a replay answers: the first answer, or the first failure when its outcome is unknown. */
export type ReferenceRecord = Omit<Attributes<typeof ReferenceItem>, 'apiReference' | 'phone'>;

/**
 * Claims an apiReference for one send with a single conditional put: it succeeds
 * when no claim exists or the existing one has expired. Returns the existing claim
 * when there is a live one.
 */
export async function claimReference(
  channel: ChannelRef,
  phone: string,
  apiReference: string,
  claim: Pick<ReferenceRecord, 'fingerprint' | 'messageId' | 'owner'>,
  ttlSeconds: number,
): Promise<{ claimed: true } | { claimed: false; existing: ReferenceRecord | undefined }> {
  const now = clock.now();
  const record: ReferenceRecord = { ...claim, state: 'pending', claimedAt: now, expiresAt: epochSeconds(now) + ttlSeconds };
  const key = keys.apiReference(channel, phone, apiReference);
  const claimed = await putItem(
    tagged(ReferenceItem, key, { apiReference, phone, ...record }),
    when.or(when.itemAbsent(), when.lte('expiresAt', epochSeconds(now))),
  );
  if (claimed) return { claimed: true };
  return { claimed: false, existing: await getReference(channel, phone, apiReference) };
}

export async function getReference(channel: ChannelRef, phone: string, apiReference: string): Promise<ReferenceRecord | undefined> {
  return getItem(keys.apiReference(channel, phone, apiReference), ReferenceItem, { consistent: true });
}

/** Settles our own claim (pending, or unknown when a webhook settles it) with its answer or failure. */
export async function settleReference(
  channel: ChannelRef,
  phone: string,
  apiReference: string,
  messageId: string,
  settlement: Pick<ReferenceRecord, 'state' | 'answer' | 'failure'>,
  from: ReferenceRecord['state'] = 'pending',
): Promise<void> {
  await update(keys.apiReference(channel, phone, apiReference))
    .set('state', settlement.state)
    // An answer or failure not given is removed (a claim settles with one of them).
    .setOrRemove('answer', settlement.answer ?? null)
    .setOrRemove('failure', settlement.failure ?? null)
    .when(when.and(when.eq('messageId', messageId), when.eq('state', from)))
    .send();
}

/** Gives our pending claim up (nothing was sent), so the reference can be used again. */
export async function releaseReference(channel: ChannelRef, phone: string, apiReference: string, messageId: string): Promise<void> {
  await deleteItem(keys.apiReference(channel, phone, apiReference), when.and(when.eq('messageId', messageId), when.eq('state', 'pending')));
}
