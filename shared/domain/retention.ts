import { config } from '../config';
import { retentionIndexAttributes } from '../data/message-retention';

/**
 * Message-content retention (`MESSAGE_CONTENT_RETENTION_DAYS`, off when unset or 0).
 * Two parts, the same code in AWS and locally:
 * - at read time, chat/messages/list and chat/message/status show `content: null` for
 *   a message older than the period, so the period holds to the second whatever the sweep;
 * - the sweep (shared/domain/retention-sweep.ts; the AutomationRedrive schedule in AWS,
 *   the local runner loop locally) blanks the stored contents: each message written
 *   while retention is on carries `outboxShard = RETAIN#<n>` and `outboxAt` = its
 *   expiry, so the sparse `outbox` index lists the due ones without a Scan.
 * docs/MESSAGING.md ("Content retention").
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/** The retention period in ms, or undefined when retention is off. */
export function retentionMs(): number | undefined {
  const days = config.messageContentRetentionDays();
  return days > 0 ? days * DAY_MS : undefined;
}

/** Whether a message sent or received at `at` may still show its content at `now`. */
export function contentVisible(at: number, now: number): boolean {
  const period = retentionMs();
  return period === undefined || now - at < period;
}

/** The attributes that put a new message into the retention part of the sparse index (none when retention is off). */
export function retentionAttributes(messageId: string, at: number): { outboxShard?: string; outboxAt?: number } {
  const period = retentionMs();
  return period === undefined ? {} : retentionIndexAttributes(messageId, at + period);
}

/**
 * An event body as shown at `now`: a `message.received` whose message is older than the
 * period shows `content: null`, to the second, as chat/messages/list does, whether or not
 * the sweep has blanked its stored body yet.
 */
export function eventWithVisibleContent<E extends { type: string; data: Record<string, unknown> }>(event: E, now: number): E {
  if (event.type !== 'message.received' || event.data.content === null || typeof event.data.timestamp !== 'string') return event;
  return contentVisible(Date.parse(event.data.timestamp), now) ? event : { ...event, data: { ...event.data, content: null } };
}
