import { EVENT_REDRIVE_AFTER_MS, EVENT_REDRIVE_REPEAT_MS } from '../config';
import {
  clearPendingEvents,
  deferRedrivenItem,
  dueEventOutboxPage,
  eventOutboxShardsFrom,
  getOutboxItem,
  parkTenantlessItem,
  type EventSource,
  type EventTicket,
  type PendingEvent,
} from '../data/event-outbox';
import { eventIdTime } from '../events/event-types';
import type { Key } from '../identity';
import { logger } from '../observability/logger';
import { enqueueEvent, type EventQueueMessage } from '../queue/event-queue';

/**
 * Event production (docs/EVENTS.md): a state change carries its event in the same
 * conditional write (shared/data/event-outbox.ts); then the request hands it to the
 * event queue, and the deliverer records it in the events log, fans it out to the
 * subscriptions and takes the item out of the outbox. The re-drive (every minute, with
 * the automation re-drive) hands over whatever a crash left in the outbox.
 */

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

/** How long a tenant-less item is parked out of the re-drive's due range (an attach makes it due at once). */
export const TENANTLESS_PARK_MS = 24 * 60 * 60_000;

/** What one re-drive pass did, and the age of the oldest item it found due with a tenant (0: none), for the outbox-age alarm. */
export type RedriveResult = {
  redriven: number;
  parked: number;
  oldestDueAgeMs: number;
  /** False when the pass stopped at its deadline before it had read every shard to its end. */
  complete: boolean;
};

/**
 * The event re-drive: every item in the outbox for longer than
 * {@link EVENT_REDRIVE_AFTER_MS} has its events handed over again, each shard read page
 * after page to its end, so no number of items ahead of a due one can hide it. A
 * tenant-less item (a status for a message no send has attached: Meta reports those of
 * the number's other senders too, kept 7 days) is parked out of the due range rather
 * than skipped, so it is read once a day at most, not at every pass. Stops when
 * `timeLeft` says so (the invocation's deadline); the shards are read from a rotating
 * start, so a pass cut short does not always leave out the same ones.
 */
export async function redriveEvents(nowMs: number, timeLeft: () => boolean = () => true): Promise<RedriveResult> {
  const result: RedriveResult = { redriven: 0, parked: 0, oldestDueAgeMs: 0, complete: true };
  for (const shard of eventOutboxShardsFrom(Math.floor(nowMs / 60_000))) {
    let startKey: Record<string, unknown> | undefined;
    do {
      if (!timeLeft()) return { ...result, complete: false };
      const page = await dueEventOutboxPage(shard, nowMs - EVENT_REDRIVE_AFTER_MS, startKey);
      for (const { key, outboxAt } of page.entries) await redriveItem(key, outboxAt, nowMs, result);
      startKey = page.next;
    } while (startKey);
  }
  return result;
}

async function redriveItem(key: Key, outboxAt: number, nowMs: number, result: RedriveResult): Promise<void> {
  const ticket = await getOutboxItem(key);
  if (!ticket) return;
  if (!ticket.pendingEvents?.length) {
    await clearPendingEvents(key, 0);
    return;
  }
  // A status ahead of its send has no tenant yet: it waits for the send to attach it, out of the way.
  if (!ticket.workspaceId) {
    if (await parkTenantlessItem(key, nowMs + TENANTLESS_PARK_MS)) result.parked++;
    return;
  }
  // Its age is its oldest event's: `outboxAt` moves on with each re-drive (below).
  result.oldestDueAgeMs = Math.max(result.oldestDueAgeMs, nowMs - Math.min(outboxAt, eventIdTime(ticket.pendingEvents[0].id)));
  await handOffEvents(ticket, 'all');
  result.redriven += ticket.pendingEvents.length;
  // Due again only EVENT_REDRIVE_REPEAT_MS from now: a deliverer minutes behind works one copy of it, not one a pass.
  await deferRedrivenItem(key, outboxAt, nowMs + EVENT_REDRIVE_REPEAT_MS - EVENT_REDRIVE_AFTER_MS);
}
