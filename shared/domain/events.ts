import { clearPendingEvents, dueEventOutboxKeys, getOutboxItem, type PendingEvent } from '../data/event-outbox';
import type { Key } from '../data/keys';
import { logger } from '../observability/logger';
import { enqueueEvent, type EventQueueMessage } from '../queue/event-queue';

/**
 * Event production (docs/EVENTS.md): a state change carries its event in the same
 * conditional write (shared/data/event-outbox.ts); then the request hands it to the
 * event queue, and the deliverer records it in the events log, fans it out to the
 * subscriptions and takes the item out of the outbox. The re-drive (every minute, with
 * the automation re-drive) hands over whatever a crash left in the outbox.
 */

/** How long an item may sit in the event outbox before the re-drive hands its events over again. */
export const EVENT_REDRIVE_AFTER_MS = 30_000;

/** A changed item as the outbox sees it: its tenant, its pending events, and what completes a status event. */
export interface EventSource {
  workspaceId?: string;
  channelId?: string;
  phone?: string;
  apiReference?: string;
  pendingEvents?: PendingEvent[];
}

/** The delivery body of a pending event, completed from the item that carried it (a status write knows only the status). */
export function completeEvent(source: EventSource, pending: PendingEvent): { body: EventQueueMessage & { kind: 'event' } } | undefined {
  if (!source.workspaceId || !source.channelId) return undefined;
  const data =
    pending.type === 'message.status'
      ? {
          channelId: source.channelId,
          chatmid: pending.data.chatmid,
          status: pending.data.status,
          error: pending.data.error ?? null,
          apiReference: source.apiReference ?? null,
          to: source.phone ?? null,
          timestamp: pending.timestamp,
        }
      : { channelId: source.channelId, ...pending.data };
  return {
    body: {
      kind: 'event',
      workspaceId: source.workspaceId,
      channelId: source.channelId,
      contactKey: pending.contactKey ?? source.phone ?? 'none',
      event: { id: pending.id, type: pending.type, timestamp: pending.timestamp, data },
    },
  };
}

/**
 * Hands an item's pending events to the event queue; the last message tells the
 * deliverer to take the item out of the outbox. A failure here is logged, not thrown:
 * the change and its event are already recorded, and the re-drive hands them over.
 */
export async function handOffEvents(key: Key, source: EventSource, only: 'newest' | 'all' = 'newest'): Promise<void> {
  const pending = source.pendingEvents ?? [];
  // A request hands off the event its own write added (older ones are their own requests' or the re-drive's).
  const first = only === 'newest' ? pending.length - 1 : 0;
  try {
    for (let index = Math.max(0, first); index < pending.length; index++) {
      const message = completeEvent(source, pending[index]);
      if (!message) return;
      await enqueueEvent(index === pending.length - 1 ? { ...message.body, source: { ...key, count: pending.length } } : message.body);
    }
  } catch (error) {
    logger.warn('event hand-off failed; the re-drive hands it over', { error: (error as Error).name });
  }
}

/** The event re-drive: items in the outbox for longer than {@link EVENT_REDRIVE_AFTER_MS} are handed over again. */
export async function redriveEvents(nowMs: number): Promise<{ redriven: number }> {
  let redriven = 0;
  for (const key of await dueEventOutboxKeys(nowMs - EVENT_REDRIVE_AFTER_MS)) {
    const item = await getOutboxItem(key);
    if (!item) continue;
    if (!item.pendingEvents?.length) {
      await clearPendingEvents(key, 0);
      continue;
    }
    // A status ahead of its send has no tenant yet: it waits for the send to attach it.
    if (!item.workspaceId) continue;
    await handOffEvents(key, item as EventSource, 'all');
    redriven += item.pendingEvents.length;
  }
  return { redriven };
}
