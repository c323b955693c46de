import { createHash } from 'node:crypto';

/**
 * The events integrators receive (by webhook and from events/list). The body of a
 * delivery is `{id, type, timestamp, data}`; `id` is the event id, also the
 * `webhook-id` header of every attempt.
 */

export const EVENT_TYPES = [
  'message.received',
  'message.status',
  'automation.execution.completed',
  'automation.execution.failed',
  'contact.opted_out',
  'contact.opted_in',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/**
 * An event's stable id: `evt_`, its time (ms, base 36, fixed width, so ids sort by time
 * and the events log's sort key orders the feed), then a hash of what makes it unique
 * (e.g. chatmid and status), so a re-drive or a repeated write yields the same id.
 */
export function eventIdFor(atMs: number, seed: string): string {
  return `evt_${atMs.toString(36).padStart(9, '0')}${createHash('sha256').update(seed).digest('hex').slice(0, 16)}`;
}

/** The time an event id carries (ms). */
export function eventIdTime(eventId: string): number {
  return parseInt(eventId.slice(4, 13), 36);
}

export const EVENT_ID_PATTERN = /^evt_[0-9a-z]{9}[0-9a-f]{16}$/;

/** Whether a subscription's `events` list takes an event type. */
export function subscribedTo(events: readonly string[], type: string): boolean {
  return events.includes('*') || events.includes(type);
}
