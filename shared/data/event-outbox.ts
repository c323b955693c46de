import * as v from 'valibot';
import { dueOutboxKeys, dueOutboxPage, type OutboxEntry } from './batch';
import { getItem, update, when, type UpdateBuilder } from './client';
import { EVENT_OUTBOX_PARTITIONS, EVENT_OUTBOX_SHARD_PREFIX, eventOutboxShardOf } from './keys';
import type { Key } from '../identity';
import { OUTBOX_INDEX } from './table-schema';

/**
 * The event outbox: an event is written with the state change that causes it, in the
 * same conditional single-item write. The changed item (a chatmid pointer, an
 * execution, a contact) appends the event to its `pendingEvents` list and enters the
 * sparse GSI `outbox` under an `EVOUTBOX#<n>` shard (the automation re-drive reads only
 * `OUTBOX#<n>`). No event exists for a change that did not happen, and no change
 * commits without its event. The request then hands the events to the delivery queue;
 * the deliverer records them in the events log and takes the item out of the outbox
 * (only if no newer event was appended since); the event re-drive finishes whatever a
 * crash left (docs/EVENTS.md).
 */

/** An event as the changed item carries it until the deliverer has recorded it. */
export const PendingEvent = v.object({
  id: v.string(),
  type: v.string(),
  /** ISO 8601. */
  timestamp: v.string(),
  data: v.record(v.string(), v.unknown()),
  /** Whose events stay in order (a phone number or contact id); completed from the item when the write cannot know it. */
  contactKey: v.optional(v.string()),
});
export type PendingEvent = v.InferOutput<typeof PendingEvent>;

/**
 * A changed item as the outbox sees it, whatever entity it is (a chatmid pointer, an
 * execution, a contact): its tenant, its pending events, and what completes a status event.
 */
const EventSourceItem = v.looseObject({
  workspaceId: v.optional(v.string()),
  channelId: v.optional(v.string()),
  phone: v.optional(v.string()),
  apiReference: v.optional(v.string()),
  pendingEvents: v.optional(v.array(PendingEvent)),
  /** When a send attached the item (a chatmid pointer): its events recorded before had no tenant. */
  attachedAt: v.optional(v.number()),
});
export type EventSource = v.InferOutput<v.ObjectSchema<typeof EventSourceItem.entries, undefined>>;

declare const ticketBrand: unique symbol;

/**
 * What a write that carried an event returns for the event's hand-off
 * (shared/domain/events.ts `handOffEvents`): the item as the outbox sees it, with the key
 * the deliverer takes it out of the outbox by. Only this layer makes one (a write, or the
 * re-drive's read of an outbox item), so no caller composes a table key to hand events over.
 */
export type EventTicket = EventSource & { readonly key: Key; readonly [ticketBrand]: true };

/** The ticket of the item at `key` after a write that filed events on it. */
export function eventTicket(key: Key, item: EventSource): EventTicket {
  const { workspaceId, channelId, phone, apiReference, pendingEvents, attachedAt } = item;
  return { workspaceId, channelId, phone, apiReference, pendingEvents, attachedAt, key } as EventTicket;
}

/** Files `event` on the item the update changes, and puts the item in the event outbox, in that same write. */
export function withPendingEvent(builder: UpdateBuilder, key: Key, event: PendingEvent, nowMs: number): UpdateBuilder {
  return builder.append('pendingEvents', [event]).set('outboxShard', eventOutboxShardOf(key)).set('outboxAt', nowMs);
}

/** The attributes a new item (a PutItem) carries to enter the outbox with its event. */
export function pendingEventAttributes(key: Key, event: PendingEvent, nowMs: number): { pendingEvents: PendingEvent[]; outboxShard: string; outboxAt: number } {
  return { pendingEvents: [event], outboxShard: eventOutboxShardOf(key), outboxAt: nowMs };
}

/**
 * Takes the item out of the outbox once its first `count` pending events are recorded:
 * only if no event was appended meanwhile (that one's own hand-off, or the re-drive,
 * clears it later). False when the condition did not hold.
 */
export async function clearPendingEvents(key: Key, count: number): Promise<boolean> {
  return update(key)
    .remove('pendingEvents', OUTBOX_INDEX.partitionKey, OUTBOX_INDEX.sortKey)
    .when(
      when.and(
        count === 0 ? when.notExists('pendingEvents') : when.sizeIs('pendingEvents', count),
        when.beginsWith(OUTBOX_INDEX.partitionKey, EVENT_OUTBOX_SHARD_PREFIX),
      ),
    )
    .send();
}

/** Items in the event outbox since before `before` (ms), from every shard: the event re-drive's work list. */
export async function dueEventOutboxKeys(before: number, limitPerShard = 100): Promise<Key[]> {
  return dueOutboxKeys(EVENT_OUTBOX_PARTITIONS, before, limitPerShard);
}

export type { OutboxEntry } from './batch';

/** The event-outbox shards, read from the `first` one round (a pass cut short does not always leave out the same ones). */
export function eventOutboxShardsFrom(first: number): string[] {
  const start = first % EVENT_OUTBOX_PARTITIONS.length;
  return [...EVENT_OUTBOX_PARTITIONS.slice(start), ...EVENT_OUTBOX_PARTITIONS.slice(0, start)];
}

/** One page (oldest first) of the items in event-outbox shard `shard` since before `before` (ms), and where the next page starts. */
export async function dueEventOutboxPage(
  shard: string,
  before: number,
  startKey?: Record<string, unknown>,
): Promise<{ entries: OutboxEntry[]; next?: Record<string, unknown> }> {
  return dueOutboxPage(shard, before, { limit: 100, startKey });
}

/**
 * Moves a tenant-less item (a status for a message no send has attached yet) out of the
 * re-drive's due range until `untilMs`, its events kept: only while it still has no
 * tenant and is in the event outbox. An attach sets `outboxAt` to its own time
 * (shared/data/messages.ts `attachChatmid`), which makes the item due again at once, so
 * parking never delays an event that can be delivered. False when the condition failed
 * (attached meanwhile, or already out of the outbox).
 */
export async function parkTenantlessItem(key: Key, untilMs: number): Promise<boolean> {
  return update(key)
    .set(OUTBOX_INDEX.sortKey, untilMs)
    .when(when.and(when.notExists('workspaceId'), when.beginsWith(OUTBOX_INDEX.partitionKey, EVENT_OUTBOX_SHARD_PREFIX)))
    .send();
}

/**
 * Moves an item the re-drive has just handed over out of its due range until `untilMs`,
 * its events kept: only while `outboxAt` is still the one the re-drive read (a newer
 * event sets its own, and is due by that) and the item is in the event outbox. The
 * deliverer takes it out once it has delivered; if it has not by then, the re-drive hands
 * it over again. False when the condition failed.
 */
export async function deferRedrivenItem(key: Key, readOutboxAt: number, untilMs: number): Promise<boolean> {
  return update(key)
    .set(OUTBOX_INDEX.sortKey, untilMs)
    .when(when.and(when.eq(OUTBOX_INDEX.sortKey, readOutboxAt), when.beginsWith(OUTBOX_INDEX.partitionKey, EVENT_OUTBOX_SHARD_PREFIX)))
    .send();
}

/** The item an outbox entry names (consistent), with its pending events, as the ticket of their hand-off; undefined when it is gone. */
export async function getOutboxItem(key: Key): Promise<EventTicket | undefined> {
  const item = await getItem(key, EventSourceItem, { consistent: true });
  return item && eventTicket(key, item);
}
