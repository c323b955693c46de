import { clock } from '../clock';
import { inboundContent, type InboundContent } from './inbound-content';

/**
 * Flattens a chat-network webhook body into events. Meta adds fields and event
 * kinds over time and the endpoint must acknowledge every signed delivery, so the
 * parser never throws: whatever it does not understand is skipped. Numbers are
 * range-checked here, so no event carries a time that is not a valid date or a
 * number DynamoDB cannot store exactly (a signed delivery that failed on those
 * would answer 5xx and be delivered again forever).
 */

export type ReportedStatus = 'sent' | 'delivered' | 'read' | 'failed';

export interface StatusEvent {
  kind: 'status';
  phoneNumberId: string;
  chatmid: string;
  status: ReportedStatus;
  /** Milliseconds since the epoch. */
  timestamp: number;
  recipientId: string;
  /** `code` is left out when the payload's is not an integer DynamoDB stores exactly. */
  error?: { code?: number; title: string; message: string };
}

export interface InboundEvent {
  kind: 'inbound';
  phoneNumberId: string;
  chatmid: string;
  from: string;
  waId: string;
  profileName?: string;
  type: string;
  text?: string;
  /** The message's content by type (shared/chat/inbound-content.ts); `type` is then the stored type. */
  content: InboundContent;
  /** Milliseconds since the epoch. */
  timestamp: number;
}

export type ChatWebhookEvent = StatusEvent | InboundEvent;

type Json = Record<string, unknown>;

const STATUSES: readonly string[] = ['sent', 'delivered', 'read', 'failed'];

/**
 * How far ahead of the receiving clock an event's time may lie (clock skew). A time
 * further ahead, or before 1970, is out of range: the event keeps the time it was
 * received instead.
 */
export const MAX_TIMESTAMP_SKEW_MS = 24 * 60 * 60 * 1000;

export interface ParseOptions {
  /** The receiving time, ms since the epoch (default: the service clock). */
  now?: number;
  /** Told about every event whose timestamp was clamped or that was dropped for a malformed one. */
  warn?: (message: string, fields: Record<string, unknown>) => void;
}

interface Context {
  now: number;
  warn: (message: string, fields: Record<string, unknown>) => void;
}

/** Parses a webhook body: already-parsed JSON, or the raw text or bytes. */
export function parseWebhookPayload(body: unknown, options: ParseOptions = {}): ChatWebhookEvent[] {
  const root = asObject(typeof body === 'string' || Buffer.isBuffer(body) ? parseJson(body.toString()) : body);
  if (root?.object !== 'whatsapp_business_account') return [];
  const context: Context = { now: options.now ?? clock.now(), warn: options.warn ?? (() => undefined) };
  return asArray(root.entry).flatMap((entry) => asArray(asObject(entry)?.changes).flatMap((change) => changeEvents(change, context)));
}

function changeEvents(change: unknown, context: Context): ChatWebhookEvent[] {
  const value = asObject(asObject(change)?.value);
  const phoneNumberId = asString(asObject(value?.metadata)?.phone_number_id);
  if (!value || phoneNumberId === undefined) return [];
  if (!idInRange(phoneNumberId, context, 'phone_number_id')) return [];
  const contacts = asArray(value.contacts)
    .map(asObject)
    .filter((contact): contact is Json => contact !== undefined);
  return [
    ...asArray(value.statuses).flatMap((status) => statusEvent(status, phoneNumberId, context)),
    ...asArray(value.messages).flatMap((message) => inboundEvent(message, phoneNumberId, contacts, context)),
  ];
}

/** Status kinds beyond the four the service tracks (e.g. `deleted`) are skipped. */
function statusEvent(raw: unknown, phoneNumberId: string, context: Context): StatusEvent[] {
  const status = asObject(raw);
  const chatmid = asString(status?.id);
  const value = asString(status?.status);
  if (!status || !chatmid || !value || !STATUSES.includes(value)) return [];
  if (!idInRange(chatmid, context, 'status id') || !idInRange(asString(status.recipient_id), context, 'recipient_id')) return [];
  const timestamp = eventTime(status.timestamp, context, { kind: 'status', chatmid });
  if (timestamp === undefined) return [];
  const event: StatusEvent = {
    kind: 'status',
    phoneNumberId,
    chatmid,
    status: value as ReportedStatus,
    timestamp,
    recipientId: asString(status.recipient_id) ?? '',
  };
  const error = firstError(status.errors);
  if (error) event.error = error;
  return [event];
}

/** Older payloads carry only `title`; newer ones add `message` and `error_data.details`. */
function firstError(errors: unknown): StatusEvent['error'] {
  const error = asObject(asArray(errors)[0]);
  if (!error || typeof error.code !== 'number') return undefined;
  const title = asString(error.title) ?? '';
  const message = asString(error.message) ?? asString(asObject(error.error_data)?.details) ?? title;
  return Number.isSafeInteger(error.code) ? { code: error.code, title, message } : { title, message };
}

function inboundEvent(raw: unknown, phoneNumberId: string, contacts: Json[], context: Context): InboundEvent[] {
  const message = asObject(raw);
  const chatmid = asString(message?.id);
  const from = asString(message?.from);
  const type = asString(message?.type);
  if (!message || !chatmid || !from || !type) return [];
  if (!idInRange(chatmid, context, 'message id') || !idInRange(from, context, 'from')) return [];
  const timestamp = eventTime(message.timestamp, context, { kind: 'inbound', chatmid });
  if (timestamp === undefined) return [];
  // With several senders in one change the contact is matched by wa_id; a lone contact belongs to the lone sender.
  const contact = contacts.find((candidate) => candidate.wa_id === from) ?? (contacts.length === 1 ? contacts[0] : undefined);
  const stored = inboundContent(message);
  const event: InboundEvent = {
    kind: 'inbound',
    phoneNumberId,
    chatmid,
    from,
    waId: asString(contact?.wa_id) ?? from,
    type: stored.type,
    content: stored.content,
    timestamp,
  };
  const profileName = asString(asObject(contact?.profile)?.name);
  if (profileName !== undefined && profileName.length <= MAX_PROFILE_NAME_LENGTH) event.profileName = profileName;
  else if (profileName !== undefined) context.warn('webhook profile name too long: left out', { kind: 'inbound', chatmid, length: profileName.length });
  const text = asString(asObject(message.text)?.body);
  if (text !== undefined && text.length > MAX_INBOUND_TEXT_LENGTH) {
    context.warn('webhook message text too long: truncated', { kind: 'inbound', chatmid, length: text.length });
    event.text = text.slice(0, MAX_INBOUND_TEXT_LENGTH);
  } else if (text !== undefined) event.text = text;
  if (stored.type === 'text') event.content = inboundContent(message, event.text).content;
  return [event];
}

/**
 * Meta sends unix seconds as a string; a number is accepted too. A malformed time
 * (not a number) drops the event; a time out of range (before 1970, or more than
 * `MAX_TIMESTAMP_SKEW_MS` ahead of the receiving clock — which includes every value
 * that is no valid date or no exact integer) is clamped to the receiving time. Both
 * with a warning.
 */
function eventTime(value: unknown, context: Context, event: { kind: string; chatmid: string }): number | undefined {
  const malformed =
    (typeof value !== 'string' && typeof value !== 'number') || (typeof value === 'string' && !/^\d+$/.test(value.trim())) || !Number.isFinite(Number(value));
  if (malformed) {
    context.warn('webhook event dropped: malformed timestamp', { ...event, reason: 'not a number of seconds' });
    return undefined;
  }
  const ms = Math.floor(Number(value) * 1000);
  if (ms < 0 || ms > context.now + MAX_TIMESTAMP_SKEW_MS) {
    context.warn('webhook event timestamp out of range: clamped to the time it was received', { ...event, reason: ms < 0 ? 'before 1970' : 'too far ahead' });
    return context.now;
  }
  return ms;
}

/**
 * Ids become parts of table keys (at most 2048 bytes): an id longer than any the
 * chat network issues drops its event, with a warning, instead of failing the write
 * on every redelivery.
 */
export const MAX_WEBHOOK_ID_LENGTH = 256;

/**
 * An inbound text is stored twice (message and chatmid pointer, 400 KB an item at most);
 * the Cloud API's own limit is 4,096 characters, so longer text is cut here, with a
 * warning, rather than failing every redelivery. A profile name longer than any real
 * one is left out (it would only name a new contact).
 */
export const MAX_INBOUND_TEXT_LENGTH = 65_536;
export const MAX_PROFILE_NAME_LENGTH = 256;

function idInRange(id: string | undefined, context: Context, field: string): boolean {
  if (id === undefined || id.length <= MAX_WEBHOOK_ID_LENGTH) return true;
  context.warn('webhook event dropped: id too long', { field, length: id.length });
  return false;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function asObject(value: unknown): Json | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function asString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
