import { clearPendingEvents, dueEventOutboxKeys, getOutboxItem, type EventSource, type EventTicket, type PendingEvent } from '../data/event-outbox';
import { eventIdTime } from '../events/event-types';
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
 * Hands an item's pending events to the event queue, oldest first; the last message
 * tells the deliverer to take the item out of the outbox. A request hands over its own
 * event (the newest), and before it any older one recorded before the item had a tenant
 * (a status ahead of its send: recorded before `attachedAt`, so no request could hand it
 * over), which must reach its contact's FIFO group first; the older ones recorded since
 * were handed over by their own requests. The re-drive hands over `all`. A failure here
 * is logged, not thrown: the change and its event are already recorded, and the
 * re-drive hands them over.
 */
export async function handOffEvents(ticket: EventTicket, which: 'own' | 'all' = 'own'): Promise<void> {
  const pending = ticket.pendingEvents ?? [];
  const heldForTenant = (event: PendingEvent) => ticket.attachedAt !== undefined && eventIdTime(event.id) < ticket.attachedAt;
  const handed = which === 'all' ? pending : pending.filter((event, index) => index === pending.length - 1 || heldForTenant(event));
  try {
    for (const event of handed) {
      const message = completeEvent(ticket, event);
      if (!message) return;
      const { pk, sk } = ticket.key;
      await enqueueEvent(event === pending.at(-1) ? { ...message.body, source: { pk, sk, count: pending.length } } : message.body);
    }
  } catch (error) {
    logger.warn('event hand-off failed; the re-drive hands it over', { error: (error as Error).name });
  }
}

/** The event re-drive: items in the outbox for longer than {@link EVENT_REDRIVE_AFTER_MS} are handed over again. */
export async function redriveEvents(nowMs: number): Promise<{ redriven: number }> {
  let redriven = 0;
  for (const key of await dueEventOutboxKeys(nowMs - EVENT_REDRIVE_AFTER_MS)) {
    const ticket = await getOutboxItem(key);
    if (!ticket) continue;
    if (!ticket.pendingEvents?.length) {
      await clearPendingEvents(key, 0);
      continue;
    }
    // A status ahead of its send has no tenant yet: it waits for the send to attach it.
    if (!ticket.workspaceId) continue;
    await handOffEvents(ticket, 'all');
    redriven += ticket.pendingEvents.length;
  }
  return { redriven };
}
