import type { InboundEvent, StatusEvent } from '../chat/webhook-payload';
import { clock } from '../clock';
import type { ExecutionRecord } from '../data/automations';
import type { PendingEvent } from '../data/event-outbox';
import type { StatusChange } from '../data/contact-status';
import type { EventData } from '../events/event-schemas';
import { eventIdFor, eventIdTime, type EventType } from '../events/event-types';

/**
 * The events each state change produces (INTERFACE of events: docs/EVENTS.md). Ids are
 * stable: the time of the write that records the change, and a hash of what makes the
 * change unique, decided before that one conditional write and kept on the item until
 * the event is in the log.
 */

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * A pending event of type `T` whose `data` is the published schema's (shared/events/event-schemas.ts),
 * less the fields the outbox completes from the item (`Completed`): a builder that drifts from
 * the schema fails tsc, not a delivery.
 */
export type TypedPendingEvent<T extends EventType, Completed extends keyof EventData<T> = never> = Omit<PendingEvent, 'type' | 'data'> & {
  type: T;
  data: Omit<EventData<T>, Completed>;
};

/** `message.status`: a forward status change of an outbound message; the tenant, recipient and apiReference come from the pointer (completeEvent, shared/domain/events.ts). */
export function statusEvent(event: StatusEvent): TypedPendingEvent<'message.status', 'channelId' | 'apiReference' | 'to' | 'timestamp'> {
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
  /** The inbound content as the event publishes it (shared/chat/inbound-content.ts builds it). */
  content: EventData<'message.received'>['content'];
  at: number;
}

/** `message.received`: an inbound message, once (the chatmid pointer that carries it is written once). */
export function receivedEvent(event: InboundEvent, message: ReceivedMessage): TypedPendingEvent<'message.received'> {
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
export function executionEndEvent(
  execution: ExecutionRecord,
  end: { status: 'completed' | 'failed'; failedStep?: number; reason?: string },
): TypedPendingEvent<'automation.execution.completed'> | TypedPendingEvent<'automation.execution.failed'> {
  const now = clock.now();
  const envelope = { id: eventIdFor(now, `execution:${execution.id}:${end.status}`), timestamp: iso(now), contactKey: execution.phone };
  const entries = {
    channelId: execution.channelId,
    executionId: execution.id,
    automationId: execution.automationId,
    automationName: execution.automationName,
    contactId: execution.contactId,
  };
  if (end.status === 'completed') return { ...envelope, type: 'automation.execution.completed', data: { ...entries, status: 'completed' } };
  return {
    ...envelope,
    type: 'automation.execution.failed',
    data: { ...entries, status: 'failed', failedStep: end.failedStep ?? null, reason: end.reason ?? null },
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
): TypedPendingEvent<'contact.opted_out'> | TypedPendingEvent<'contact.opted_in'> {
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
