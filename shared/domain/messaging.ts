import { createHash } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { accessTokenFor } from '../chat/access-tokens';
import { ChatNetworkError, toCallerError, type SendResult } from '../chat/graph-client';
import { chatNetwork } from '../chat/network';
import {
  buildMediaPayload,
  buildTemplatePayload,
  buildTextPayload,
  CAPTIONED_MEDIA_TYPES,
  quoting,
  type MediaReference,
  type MediaType,
  type SendPayload,
  type TemplateHeaderInput,
} from '../chat/payloads';
import { clock } from '../clock';
import { getChannel } from '../data/channels';
import { ensureContact, updateContact } from '../data/contacts';
import { addUnsettledMessage, ensureConversation, getConversation, rememberWaId } from '../data/conversations';
import {
  claimReference,
  getReference,
  markSentToOptedOut,
  putMessageIntent,
  recordAcceptedSend,
  recordSendOutcome,
  releaseReference,
  settleReference,
  type MessageContent,
  type MessageRecord,
  type ReferenceRecord,
} from '../data/messages';
import { UpstreamError, InvalidInputError, ConflictError, ForbiddenError, AppError } from '../errors';
import { countMessageFailed, countMessageSent, countSendToOptedOut } from '../observability/metrics';
import { logger } from '../observability/logger';
import { numberForms } from '../phone/phone';
import { isSuppressed, suppress } from '../data/suppression';
import { newId } from '../ids';
import { refuseIfOptedOut } from './opt-out';
import { retentionAttributes } from './retention';
import { checkTemplateInput, type TemplateSendInput } from './template-input';
import { resolveTemplate } from './templates';
import type { ChannelRef } from '../identity';
import { handOffEvents } from './events';
import {
  isRichType,
  referencedChatmids,
  refuseForeignRichParameters,
  requireConversationMessages,
  richMessage,
  type RichSendInput,
  type RichType,
} from './rich-messages';

/**
 * Sending messages: chat/message/send and chat/templates/send. Every send follows
 * one lifecycle (docs/MESSAGING.md): optional apiReference claim → checks → contact,
 * conversation → intent (`pending`) → the chat network → outcome (`accepted`, or
 * `failed`/`unknown` with the reason) → chatmid pointer → the claim's answer.
 */

export const SESSION_WINDOW_MS = 24 * 60 * 60 * 1000;
/** How long an apiReference is an idempotency key. */
export const API_REFERENCE_TTL_SECONDS = 24 * 60 * 60;
/** A claim still pending after this long was interrupted (a send takes at most the functions' 10 s). */
const STALE_CLAIM_MS = 30_000;
/** How long a concurrent duplicate waits for the first send's answer before it gets a 409. */
const DUPLICATE_WAIT_MS = 4_000;
const DUPLICATE_POLL_MS = 100;

/** The channel a message is sent from; the automation runner marks its apiReference claims as its own. */
export type SendScope = ChannelRef & { sender?: 'automation' };

/** The envelope message of a send answered from an earlier one with the same apiReference. */
export const REPLAYED_SEND_MESSAGE = 'Already sent with this apiReference: the first answer, nothing sent again';

export interface SendAnswer {
  data: Record<string, unknown>;
  /** True when the answer is the first send's, replayed for a repeated apiReference. */
  replayed: boolean;
}

export interface RegularSendInput extends RichSendInput {
  type: 'text' | MediaType | RichType;
  body?: string;
  url?: string;
  /** The chat network's id of uploaded media (chat/media/upload), instead of `url`. */
  mediaId?: string;
  caption?: string;
  filename?: string;
  apiReference?: string;
}

/**
 * chat/message/send: a text, media or rich message (shared/domain/rich-messages.ts),
 * optionally quoting one, only inside the 24-hour session window.
 */
export async function sendRegularMessage(scope: SendScope, input: RegularSendInput): Promise<SendAnswer> {
  refuseForeignRichParameters(input as RegularSendInput & Record<string, unknown>);
  const message = isRichType(input.type) ? richMessage({ ...input, type: input.type }) : regularMessage({ ...input, type: input.type });
  const { replyTo } = input;
  const referenced = referencedChatmids(input);
  return deliver(scope, {
    phone: input.to,
    apiReference: input.apiReference,
    type: input.type,
    content: replyTo === undefined ? message.content : ({ ...message.content, replyTo } as MessageContent),
    payload: replyTo === undefined ? message.payload : quoting(message.payload, replyTo),
    guard: async () => {
      await requireOpenWindow(scope, input.to);
      await requireConversationMessages(scope, input.to, referenced);
    },
  });
}

/** chat/templates/send: an approved template, checked against the stored template before anything is sent. */
export async function sendTemplateMessage(scope: SendScope, input: TemplateSendInput): Promise<SendAnswer> {
  const template = await resolveTemplate(scope, input.templateName, input.languageCode);
  const checked = checkTemplateInput(template, input);
  const content: MessageContent = {
    templateName: template.name,
    languageCode: template.language,
    bodyVariables: checked.bodyVariables,
    ...(checked.header ? { header: headerContent(checked.header) } : {}),
  };
  return deliver(scope, { phone: input.to, apiReference: input.apiReference, type: 'template', content, payload: buildTemplatePayload(input.to, checked) });
}

/** The answer of a send, rebuilt from its message (also when a webhook settles it later). */
export function answerFor(message: Pick<MessageRecord, 'type' | 'content' | 'phone' | 'apiReference'>, chatmid: string): Record<string, unknown> {
  if (message.type === 'template') {
    const content = message.content as { templateName: string; languageCode: string };
    return {
      chatmid,
      status: 'accepted',
      to: message.phone,
      templateName: content.templateName,
      languageCode: content.languageCode,
      apiReference: message.apiReference ?? null,
    };
  }
  return { chatmid, status: 'accepted', to: message.phone, type: message.type, apiReference: message.apiReference ?? null };
}

function regularMessage(input: RegularSendInput & { type: 'text' | MediaType }): { content: MessageContent; payload: SendPayload } {
  if (input.type === 'text') {
    if (input.body === undefined) throw new InvalidInputError('Missing required parameter: body (the text of a text message).', 'body', 'missing_parameter');
    for (const name of ['url', 'mediaId', 'caption', 'filename'] as const) {
      if (input[name] !== undefined) throw new InvalidInputError(`Invalid parameter ${name}: only for media messages; a text message has only body.`, name);
    }
    return { content: { body: input.body }, payload: buildTextPayload(input.to, input.body) };
  }
  const file = mediaReference(input, input.type);
  if (input.body !== undefined) throw new InvalidInputError('Invalid parameter body: only for text messages; a media message takes caption.', 'body');
  if (input.caption !== undefined && !CAPTIONED_MEDIA_TYPES.includes(input.type))
    throw new InvalidInputError(`Invalid parameter caption: ${input.type} messages have no caption.`, 'caption');
  if (input.filename !== undefined && input.type !== 'document')
    throw new InvalidInputError('Invalid parameter filename: only document messages have a filename.', 'filename');
  const media = { ...file, caption: input.caption, filename: input.filename };
  const content = Object.fromEntries(
    Object.entries({ url: file.link, mediaId: file.id, caption: input.caption, filename: input.filename }).filter(([, value]) => value !== undefined),
  );
  return { content: content as MessageContent, payload: buildMediaPayload(input.to, input.type, media) };
}

/** The file of a media message: exactly one of `url` (a public link) and `mediaId` (what chat/media/upload answered). */
function mediaReference(input: RegularSendInput, type: MediaType): MediaReference {
  if (input.url !== undefined && input.mediaId !== undefined)
    throw new InvalidInputError(`Invalid parameter mediaId: a ${type} message takes url or mediaId, not both.`, 'mediaId');
  if (input.mediaId !== undefined) return { id: input.mediaId };
  if (input.url !== undefined) return { link: input.url };
  throw new InvalidInputError(
    `Missing required parameter: url or mediaId (the media link of a ${type} message, or the media id chat/media/upload answered).`,
    'url',
    'missing_parameter',
  );
}

function headerContent(header: TemplateHeaderInput) {
  return header.type === 'text' ? { type: 'text', text: header.text } : { type: header.type, link: header.link };
}

/** 400 before any chat-network call when the contact has not written in the last 24 hours. */
async function requireOpenWindow(scope: SendScope, phone: string): Promise<void> {
  const conversation = await getConversation(scope, phone);
  const last = conversation?.lastInboundAt;
  if (last !== undefined && clock.now() - last <= SESSION_WINDOW_MS) return;
  const since = last === undefined ? 'has not written to this channel' : `last wrote at ${new Date(last).toISOString()}`;
  throw new InvalidInputError(
    `Outside the 24-hour session window: ${phone} ${since}, so only a template message can be sent. Use chat/templates/send; a free-form message is possible again once the contact writes.`,
    'to',
    'outside_session_window',
    { lastInboundAt: last === undefined ? null : new Date(last).toISOString() },
  );
}

interface Delivery {
  phone: string;
  apiReference?: string;
  type: MessageRecord['type'];
  content: MessageContent;
  payload: SendPayload;
  /** Checks that depend on time (the session window): run after the claim, so a replay still gets the first answer. */
  guard?: () => Promise<void>;
}

async function deliver(scope: SendScope, delivery: Delivery): Promise<SendAnswer> {
  const channel = await getChannel(scope);
  if (!channel) throw new ForbiddenError('This API key may not use that channel.', { parameter: 'channelId' });
  const messageId = newId('msg');
  const reference = delivery.apiReference === undefined ? undefined : { apiReference: delivery.apiReference, fingerprint: fingerprintOf(delivery) };
  if (reference) {
    const replay = await claimOrReplay(scope, delivery.phone, reference.apiReference, reference.fingerprint, messageId);
    if (replay) return { data: replay, replayed: true };
  }
  let calledNetwork = false;
  try {
    await delivery.guard?.();
    const token = await accessTokenFor(channel);
    const { contact } = await ensureContact(scope, delivery.phone);
    await refuseIfOptedOut(scope, contact);
    const now = clock.now();
    const conversation = await ensureConversation(scope, delivery.phone, contact.id, { outboundAt: now });
    const message: MessageRecord = {
      id: messageId,
      direction: 'outbound',
      type: delivery.type,
      content: delivery.content,
      phone: delivery.phone,
      contactId: contact.id,
      conversationId: conversation.id,
      apiReference: delivery.apiReference,
      sendState: 'pending',
      at: now,
      createdAt: new Date(now).toISOString(),
      updatedAt: new Date(now).toISOString(),
    };
    await putMessageIntent(scope, message, retentionAttributes(message.id, message.at));
    calledNetwork = true;
    let result: SendResult;
    try {
      result = await chatNetwork().sendMessage(channel.phoneNumberId, token, delivery.payload);
    } catch (error) {
      if (error instanceof ChatNetworkError) throw await recordFailure(scope, message, error);
      throw error;
    }
    await recordAccepted(scope, message, result, contact.waId, channel.phoneNumberId);
    const data = answerFor(message, result.chatmid);
    if (reference) await settleReference(scope, delivery.phone, reference.apiReference, messageId, { state: 'done', answer: data });
    return { data, replayed: false };
  } catch (error) {
    // Nothing reached the chat network: the reference may be used again.
    if (reference && !calledNetwork) await releaseReference(scope, delivery.phone, reference.apiReference, messageId).catch(() => undefined);
    throw error;
  }
}

/**
 * Records the chat network's answer: the message accepted under its chatmid, its pointer
 * and history entry (shared/data/messages.ts `recordAcceptedSend`), then the status
 * events that came before the attach are handed over (recorded without a tenant, nothing
 * could hand them over before).
 */
async function recordAccepted(
  channel: ChannelRef,
  message: MessageRecord,
  result: SendResult,
  knownWaId: string | undefined,
  phoneNumberId: string,
): Promise<void> {
  countMessageSent(message.type);
  const attached = await recordAcceptedSend(channel, message, { chatmid: result.chatmid, waId: result.waId || undefined, phoneNumberId });
  if (attached?.events) await handOffEvents(attached.events);
  // Inbound messages are matched by wa_id, so numbers the chat network rewrites stay one
  // contact. A contact is given its wa_id only after the map entry is written (or, for a
  // number never rewritten, its wa_id is its own digits), so a contact that already
  // carries this wa_id needs neither write again: one call less on every later send.
  if (result.waId && knownWaId !== result.waId) {
    await recordIfOptedOut(channel, message, result.waId);
    await rememberWaId(channel, result.waId, message.phone);
    await updateContact(channel, message.phone, { waId: result.waId });
  }
}

/**
 * A wa_id the chat network answered with that is none of the forms the send checked
 * (shared/phone `numberForms`) may be opted out: the message is already accepted, so
 * it is marked on its item (`sentToOptedOut`), counted (`SendsToOptedOut`) and logged,
 * and the number's own forms are suppressed from now on, so the next send to it is
 * refused before the chat network.
 */
async function recordIfOptedOut(channel: ChannelRef, message: MessageRecord, waId: string): Promise<void> {
  if (numberForms(message.phone).includes(waId) || !(await isSuppressed(channel, [waId]))) return;
  countSendToOptedOut();
  logger.warn('send accepted for an opted-out wa_id', { channelId: channel.channelId, messageId: message.id });
  await markSentToOptedOut(channel, message.id);
  await suppress(channel, [message.phone], clock.now());
}

/**
 * Records a failed send and returns the caller's error. Refused or never sent: the
 * message is `failed` and the reference is released. Outcome unknown (timeout, 5xx):
 * the message is `unknown`, never resent; a status webhook may settle it, and a
 * replay of the reference answers the same 502.
 */
async function recordFailure(channel: ChannelRef, message: MessageRecord, error: ChatNetworkError): Promise<AppError> {
  const mapped = toCallerError(error);
  const reason = { code: error.metaCode ?? error.httpStatus ?? error.outcome, message: error.details ?? error.message };
  countMessageFailed(message.type);
  if (error.outcome !== 'unknown') {
    await recordSendOutcome(channel, message, { sendState: 'failed', error: reason });
    if (message.apiReference) await releaseReference(channel, message.phone, message.apiReference, message.id);
    return mapped;
  }
  await recordSendOutcome(channel, message, { sendState: 'unknown', error: reason });
  await addUnsettledMessage(channel, message.phone, message.id);
  const unknown = new UpstreamError(mapped.message, { outcome: 'unknown', messageId: message.id });
  if (message.apiReference) {
    await settleReference(channel, message.phone, message.apiReference, message.id, { state: 'unknown', failure: failureOf(unknown) });
  }
  return unknown;
}

function failureOf(error: AppError): NonNullable<ReferenceRecord['failure']> {
  return { code: error.code, message: error.message, details: error.details };
}

/** A stable hash of what is sent (the recipient and channel are in the claim's key). */
function fingerprintOf(delivery: Delivery): string {
  return createHash('sha256')
    .update(JSON.stringify({ type: delivery.type, content: delivery.content }))
    .digest('base64url');
}

/**
 * Claims the apiReference for this send, or answers from the existing claim: the
 * first answer (same parameters), 409 (other parameters), the recorded 502 (outcome
 * unknown). A concurrent duplicate waits briefly for the first send's answer.
 * Returns undefined when this call holds the claim and must send.
 */
async function claimOrReplay(
  scope: SendScope,
  phone: string,
  apiReference: string,
  fingerprint: string,
  messageId: string,
): Promise<Record<string, unknown> | undefined> {
  // A wait for real work elsewhere: on the real clock, which tests do not freeze.
  const waitUntil = clock.realNow() + DUPLICATE_WAIT_MS;
  let existing: ReferenceRecord | undefined;
  for (let attempt = 0; attempt < 50; attempt++) {
    if (existing === undefined || existing.expiresAt <= Math.floor(clock.now() / 1000)) {
      const claim = await claimReference(scope, phone, apiReference, { fingerprint, messageId, owner: scope.sender }, API_REFERENCE_TTL_SECONDS);
      if (claim.claimed) return undefined;
      existing = claim.existing;
      if (existing === undefined) continue;
    }
    if (existing.fingerprint !== fingerprint) {
      throw new ConflictError(
        `apiReference "${apiReference}" was already used for a different message to ${phone} within the last 24 hours. Use a new apiReference for a different message.`,
        { parameter: 'apiReference' },
      );
    }
    if (existing.state === 'done' && existing.answer) return existing.answer;
    if (existing.state === 'unknown' && existing.failure) {
      // Only a send of unknown outcome is recorded as a failure: it replays as the same 502.
      const { code, message, details } = existing.failure;
      throw new AppError('upstream', code, message, { details });
    }
    if (clock.now() - existing.claimedAt > STALE_CLAIM_MS) {
      throw new UpstreamError(
        'An earlier send with this apiReference was interrupted before the chat network’s answer was recorded, so its outcome is unknown. It is not resent; use a new apiReference to send again.',
        { outcome: 'unknown', messageId: existing.messageId },
      );
    }
    if (clock.realNow() >= waitUntil) break;
    await delay(DUPLICATE_POLL_MS);
    existing = await getReference(scope, phone, apiReference);
  }
  throw new ConflictError(`A send with apiReference "${apiReference}" to ${phone} is still in progress. Retry shortly to get its answer.`, {
    parameter: 'apiReference',
  });
}
