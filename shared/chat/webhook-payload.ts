import { inboundContent, type InboundContent } from './inbound-content';

/**
 * Flattens a chat-network webhook body into events. Meta adds fields and event
 * kinds over time and the endpoint must acknowledge every signed delivery, so the
 * parser never throws: whatever it does not understand is skipped.
 */

export type MessageStatus = 'sent' | 'delivered' | 'read' | 'failed';

export interface StatusEvent {
  kind: 'status';
  phoneNumberId: string;
  chatmid: string;
  status: MessageStatus;
  /** Milliseconds since the epoch. */
  timestamp: number;
  recipientId: string;
  error?: { code: number; title: string; message: string };
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

/** Parses a webhook body: already-parsed JSON, or the raw text or bytes. */
export function parseWebhookPayload(body: unknown): ChatWebhookEvent[] {
  const root = asObject(typeof body === 'string' || Buffer.isBuffer(body) ? parseJson(body.toString()) : body);
  if (root?.object !== 'whatsapp_business_account') return [];
  return asArray(root.entry).flatMap((entry) => asArray(asObject(entry)?.changes).flatMap(changeEvents));
}

function changeEvents(change: unknown): ChatWebhookEvent[] {
  const value = asObject(asObject(change)?.value);
  const phoneNumberId = asString(asObject(value?.metadata)?.phone_number_id);
  if (!value || phoneNumberId === undefined) return [];
  const contacts = asArray(value.contacts).map(asObject).filter((contact): contact is Json => contact !== undefined);
  return [
    ...asArray(value.statuses).flatMap((status) => statusEvent(status, phoneNumberId)),
    ...asArray(value.messages).flatMap((message) => inboundEvent(message, phoneNumberId, contacts)),
  ];
}

/** Status kinds beyond the four the service tracks (e.g. `deleted`) are skipped. */
function statusEvent(raw: unknown, phoneNumberId: string): StatusEvent[] {
  const status = asObject(raw);
  const chatmid = asString(status?.id);
  const value = asString(status?.status);
  const timestamp = secondsToMs(status?.timestamp);
  if (!status || !chatmid || !value || !STATUSES.includes(value) || timestamp === undefined) return [];
  const event: StatusEvent = {
    kind: 'status',
    phoneNumberId,
    chatmid,
    status: value as MessageStatus,
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
  return { code: error.code, title, message };
}

function inboundEvent(raw: unknown, phoneNumberId: string, contacts: Json[]): InboundEvent[] {
  const message = asObject(raw);
  const chatmid = asString(message?.id);
  const from = asString(message?.from);
  const type = asString(message?.type);
  const timestamp = secondsToMs(message?.timestamp);
  if (!message || !chatmid || !from || !type || timestamp === undefined) return [];
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
  if (profileName !== undefined) event.profileName = profileName;
  const text = asString(asObject(message.text)?.body);
  if (text !== undefined) event.text = text;
  return [event];
}

/** Meta sends unix seconds as a string; a number is accepted too. */
function secondsToMs(value: unknown): number | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  if (typeof value === 'string' && !/^\d+$/.test(value.trim())) return undefined;
  const seconds = Number(value);
  return Number.isFinite(seconds) ? seconds * 1000 : undefined;
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
