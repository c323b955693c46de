import type { InboundEvent, StatusEvent } from '../chat/webhook-payload';
import { clock } from '../clock';
import type { ExecutionRecord } from '../data/automations';
import type { PendingEvent } from '../data/event-outbox';
import type { MessageContent } from '../data/messages';
import type { StatusChange } from '../data/contact-status';
import type { EventData } from '../events/event-schemas';
import { eventIdFor, eventIdTime } from '../events/event-types';

/**
 * The events each state change produces (INTERFACE of events: docs/EVENTS.md). Ids are
 * stable: the time of the write that records the change, and a hash of what makes the
 * change unique, decided before that one conditional write and kept on the item until
 * the event is in the log.
 */

const iso = (ms: number) => new Date(ms).toISOString();

/** `message.status`: a forward status change of an outbound message; the tenant, recipient and apiReference come from the pointer. */
export function statusEvent(event: StatusEvent): PendingEvent {
  return {
    id: eventIdFor(clock.now(), `status:${event.chatmid}:${event.status}`),
    type: 'message.status',
    timestamp: iso(event.timestamp),
    data: { chatmid: event.chatmid, status: event.status, error: event.error ?? null },
  };
}

export interface ReceivedMessage {
  channelId: string;
  messageId: string;
  conversationId: string;
  contact: { id: string; phone: string; name: string | null };
  content: MessageContent;
  at: number;
}

/** `message.received`: an inbound message, once (the chatmid pointer that carries it is written once). */
export function receivedEvent(event: InboundEvent, message: ReceivedMessage): PendingEvent {
  return {
    id: eventIdFor(clock.now(), `received:${event.chatmid}`),
    type: 'message.received',
    timestamp: iso(message.at),
    contactKey: message.contact.phone,
    data: {
      channelId: message.channelId,
      chatmid: event.chatmid,
      conversationId: message.conversationId,
      contact: message.contact,
      type: event.type,
      content: message.content,
      timestamp: iso(message.at),
    },
  };
}

/** `automation.execution.completed` / `.failed`: an execution's end, written by the step that ends it. */
export function executionEndEvent(execution: ExecutionRecord, end: { status: 'completed' | 'failed'; failedStep?: number; reason?: string }): PendingEvent {
  const now = clock.now();
  return {
    id: eventIdFor(now, `execution:${execution.id}:${end.status}`),
    type: `automation.execution.${end.status}`,
    timestamp: iso(now),
    contactKey: execution.phone,
    data: {
      channelId: execution.channelId,
      executionId: execution.id,
      automationId: execution.automationId,
      automationName: execution.automationName,
      contactId: execution.contactId,
      status: end.status,
      ...(end.status === 'failed' ? { failedStep: end.failedStep ?? null, reason: end.reason ?? null } : {}),
    },
  };
}

/**
 * `contact.opted_out` / `contact.opted_in`: a contact's opt-out status changed, by a
 * keyword, contacts/manage or contacts/import. Given the id of the event that caused it
 * (a keyword's message.received), its id time is at least 1 ms later, so the log (ordered
 * by id) never shows the effect before its cause.
 */
export function optOutEvent(
  channelId: string,
  contact: { id: string; phone: string },
  change: Pick<StatusChange, 'status' | 'source' | 'keyword'>,
  cause?: string,
): PendingEvent {
  const now = cause === undefined ? clock.now() : Math.max(clock.now(), eventIdTime(cause) + 1);
  const type = change.status === 'opted_out' ? 'contact.opted_out' : 'contact.opted_in';
  const data: EventData<typeof type> = { channelId, contact, source: change.source, ...(change.source === 'keyword' ? { keyword: change.keyword } : {}) };
  return {
    id: eventIdFor(now, `${type}:${channelId}:${contact.phone}:${now}`),
    type,
    timestamp: iso(now),
    contactKey: contact.phone,
    data,
  };
}
