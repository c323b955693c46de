import * as v from 'valibot';
import { batchPutAll, queryAll, queryPrefixPage, queryRangePage } from './batch';
import { deleteItem, getItem, putIfAbsent, update, when } from './client';
import { mapLimit } from '../map-limit';
import { entity, ItemKey, tagged, type Attributes } from './entity';
import { dueOutboxPage } from './batch';
import { EVENT_LANE_PARTITIONS, EVENT_LANE_SHARD_PREFIX, eventLaneShardOf, keys, parseDeliveryLaneKey } from './keys';
import type { Key } from '../identity';
import { OUTBOX_INDEX } from './table-schema';
import { clock } from '../clock';
import type { ChannelRef } from '../identity';

/**
 * The events log (events/list), the delivery log (webhooks/deliveries) and the delivery
 * lanes that keep each contact's events in order per subscription. All in the channel's
 * partition; events and deliveries expire by TTL (`expiresAt`) after their retention.
 */

/** Events are kept this long (events/list promises at least 7 days). */
export const EVENT_RETENTION_SECONDS = 8 * 24 * 60 * 60;
/** Delivery log items are kept this long after their last change (the retry schedule spans about two days). */
export const DELIVERY_RETENTION_SECONDS = 14 * 24 * 60 * 60;

const epochSeconds = (ms: number) => Math.floor(ms / 1000);

/** An event in the channel's log (events/list, redeliveries), kept for its retention. */
export const EventItem = entity('event', {
  id: v.string(),
  type: v.string(),
  /** The JSON body every delivery of the event carries, byte for byte. */
  body: v.string(),
  contactKey: v.string(),
  /** TTL (epoch seconds). */
  expiresAt: v.number(),
});
/** An event as the log records it (the retention is the log's). */
export type EventLogRecord = Omit<Attributes<typeof EventItem>, 'expiresAt'>;

const eventLogItem = (channel: ChannelRef, event: EventLogRecord, nowMs: number) =>
  tagged(EventItem, keys.event(channel, event.id), { ...event, expiresAt: epochSeconds(nowMs) + EVENT_RETENTION_SECONDS });

/** Records events in the log with BatchWriteItem (25 a call; idempotent: the same event id writes the same item). */
export async function putEventLogs(entries: Array<{ channel: ChannelRef; event: EventLogRecord }>, nowMs: number): Promise<void> {
  const items = new Map(entries.map(({ channel, event }) => [`${channel.workspaceId}/${channel.channelId}/${event.id}`, eventLogItem(channel, event, nowMs)]));
  await batchPutAll([...items.values()]);
}

/** Takes events out of the log again (their contact was erased meanwhile). */
export async function deleteEventLogs(entries: Array<{ channel: ChannelRef; event: Pick<EventLogRecord, 'id'> }>): Promise<void> {
  await Promise.all(entries.map(({ channel, event }) => deleteItem(keys.event(channel, event.id))));
}

/** An event of the log while it is kept: one past its retention is not, even before DynamoDB's TTL (days late; never locally) deletes it. */
export async function getEventLog(channel: ChannelRef, eventId: string): Promise<EventLogRecord | undefined> {
  const event = await getItem(keys.event(channel, eventId), EventItem);
  return event && event.expiresAt * 1000 > clock.now() ? event : undefined;
}

/**
 * Takes a message's content out of its event's stored body (`data.content` becomes null;
 * the retention sweep, shared/data/message-retention.ts), so events/list and every later
 * attempt carry it no longer. Nothing when the event is gone (TTL, an erasure) or already blank.
 */
export async function removeEventContent(channel: ChannelRef, eventId: string): Promise<void> {
  const event = await getItem(keys.event(channel, eventId), EventItem, { consistent: true });
  if (!event) return;
  const body = JSON.parse(event.body) as { data?: Record<string, unknown> };
  if (!body.data || body.data.content === null) return;
  const blanked = JSON.stringify({ ...body, data: { ...body.data, content: null } });
  await update(keys.event(channel, eventId)).set('body', blanked).when(when.itemExists()).send();
}

/** Events after `afterId` (exclusive; from the oldest when undefined), oldest first, younger than the retention. */
export async function listEventLog(channel: ChannelRef, afterId: string | undefined, limit: number, nowMs: number): Promise<EventLogRecord[]> {
  const { pk, skPrefix } = keys.eventPrefix(channel);
  // Event ids begin with their time: the key condition starts at the oldest event still kept (TTL deletion lags, and dynalite never deletes).
  const oldestKept = `evt_${(nowMs - EVENT_RETENTION_SECONDS * 1000).toString(36).padStart(9, '0')}`;
  const from = afterId && afterId > oldestKept ? `${skPrefix}${afterId}~` : `${skPrefix}${oldestKept}`;
  return (await queryRangePage(pk, from, `${skPrefix}~`, EventItem, { limit, consistent: true })).items;
}

// ---- deliveries ---------------------------------------------------------------------

export const EVENT_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type EventDeliveryStatus = (typeof EVENT_DELIVERY_STATUSES)[number];

/** An event's delivery to one subscription: its state after the last attempt, kept for its retention. */
export const DeliveryItem = entity('eventDelivery', {
  webhookId: v.string(),
  eventId: v.string(),
  type: v.string(),
  contactKey: v.string(),
  status: v.picklist(EVENT_DELIVERY_STATUSES),
  attempts: v.pipe(v.number(), v.integer()),
  lastAttemptAt: v.nullable(v.string()),
  lastStatusCode: v.nullable(v.number()),
  lastError: v.nullable(v.string()),
  nextAttemptAt: v.nullable(v.string()),
  /** TTL (epoch seconds), moved by every change. */
  expiresAt: v.number(),
});
/** A delivery as its writers give it (the retention is the log's). */
export type DeliveryRecord = Omit<Attributes<typeof DeliveryItem>, 'expiresAt'>;

/** Creates an event's delivery to a subscription; false when it exists (a repeated fan-out). */
export async function createDelivery(channel: ChannelRef, delivery: DeliveryRecord, nowMs: number): Promise<boolean> {
  const item = tagged(DeliveryItem, keys.eventDelivery(channel, delivery.webhookId, delivery.eventId), {
    ...delivery,
    expiresAt: epochSeconds(nowMs) + DELIVERY_RETENTION_SECONDS,
  });
  return (await putIfAbsent(item)) === 'created';
}

export async function getDelivery(channel: ChannelRef, webhookId: string, eventId: string): Promise<DeliveryRecord | undefined> {
  return getItem(keys.eventDelivery(channel, webhookId, eventId), DeliveryItem, { consistent: true });
}

/**
 * Writes a delivery's state after an attempt (or a redelivery's reset); the TTL moves with
 * it. Only an existing delivery: one erased meanwhile (contacts/delete) stays erased,
 * rather than coming back as a fragment without its event.
 */
export async function updateDelivery(channel: ChannelRef, webhookId: string, eventId: string, changes: Partial<DeliveryRecord>, nowMs: number): Promise<void> {
  await update(keys.eventDelivery(channel, webhookId, eventId))
    .setAll({ ...changes, expiresAt: epochSeconds(nowMs) + DELIVERY_RETENTION_SECONDS })
    .when(when.itemExists())
    .send();
}

/** Deletes an event's delivery to a subscription (its contact was erased meanwhile). */
export async function deleteDelivery(channel: ChannelRef, webhookId: string, eventId: string): Promise<void> {
  await deleteItem(keys.eventDelivery(channel, webhookId, eventId));
}

/**
 * A subscription's deliveries, newest event first, from after `beforeEventId`
 * (exclusive), optionally of one status. Reads query pages until `limit` match or
 * the log ends; returns whether more may follow.
 */
export async function listDeliveries(
  channel: ChannelRef,
  webhookId: string,
  options: { status?: EventDeliveryStatus; beforeEventId?: string; limit: number },
): Promise<{ deliveries: DeliveryRecord[]; more: boolean }> {
  const { pk, skPrefix } = keys.eventDeliveryPrefix(channel, webhookId);
  const to = options.beforeEventId ? `${skPrefix}${options.beforeEventId}` : `${skPrefix}~`;
  const deliveries: DeliveryRecord[] = [];
  let startKey: Record<string, unknown> | undefined;
  for (let page = 0; page < 10; page++) {
    const { items, lastKey } = await queryRangePage(pk, skPrefix, to, DeliveryItem, {
      filter: options.status ? when.eq('status', options.status) : undefined,
      reverse: true,
      startKey,
      limit: options.limit + 1,
      consistent: true,
    });
    for (const delivery of items) {
      if (delivery.eventId === options.beforeEventId) continue;
      if (deliveries.length === options.limit) return { deliveries, more: true };
      deliveries.push(delivery);
    }
    if (!lastKey) return { deliveries, more: false };
    startKey = lastKey;
  }
  return { deliveries, more: true };
}

/** Deletes in flight at once while a subscription's records go. */
const DELETE_CONCURRENCY = 8;

/**
 * Deletes a removed subscription's delivery log and delivery lanes (webhooks/delete).
 * Run after the subscription left the set: a deliverer that still holds one of its events
 * finds no subscription and writes nothing more to its log.
 */
export async function deleteSubscriptionRecords(channel: ChannelRef, webhookId: string): Promise<number> {
  const found = await Promise.all(
    [keys.eventDeliveryPrefix(channel, webhookId), keys.deliveryLanePrefix(channel, webhookId)].map(({ pk, skPrefix }) =>
      queryAll(pk, skPrefix, ItemKey, { attributes: ['pk', 'sk'], consistent: true }),
    ),
  );
  const itemKeys = found.flat();
  await mapLimit(itemKeys, DELETE_CONCURRENCY, (key) => deleteItem({ pk: key.pk, sk: key.sk }));
  return itemKeys.length;
}

// ---- lanes --------------------------------------------------------------------------

/** A contact's delivery lane to one subscription: the events waiting (ids sort by time), a lock, the next retry. */
export interface LaneState {
  waiting: string[];
  nextAttemptAt?: number;
  lockOwner?: string;
  lockedUntil?: number;
  parked?: boolean;
}

/** A contact's delivery lane to one subscription. */
export const LaneItem = entity('deliveryLane', {
  /** Ids of the events waiting, to be delivered in id (time) order. */
  waiting: v.optional(v.set(v.string())),
  /** When the head is tried again (ms). */
  nextAttemptAt: v.optional(v.number()),
  lockOwner: v.optional(v.string()),
  /** The lock's lease (ms). */
  lockedUntil: v.optional(v.number()),
  /**
   * The lane waits for its subscription's circuit breaker to close, with no wake-up of its
   * own: the probe's success wakes it (one Query of the subscription's lanes), else the
   * lane sweep. Taking the lock clears it; the holder decides again.
   */
  parked: v.optional(v.boolean()),
});
/**
 * A lane's state as an update returns it: an update that takes the lock may be the write
 * that creates the lane (a wake-up after an erasure deleted it), so the tag is not required.
 */
const LaneStateItem = v.omit(LaneItem, ['entity']);

function laneState(item: v.InferOutput<typeof LaneStateItem> | undefined): LaneState | undefined {
  if (!item) return undefined;
  return {
    waiting: item.waiting ? [...item.waiting].sort() : [],
    nextAttemptAt: item.nextAttemptAt,
    lockOwner: item.lockOwner,
    lockedUntil: item.lockedUntil,
    parked: item.parked,
  };
}

/**
 * A lane with events waiting is filed in the outbox index (an `EVLANE#<n>` shard) under
 * the time by which a deliverer must have worked it: its lock's lease or its retry's
 * time, plus this grace. Every write that leaves events waiting moves that time; the
 * writes that empty the lane take it out. So a lane past its time has lost its wake-up
 * (a crash, a message in the dead-letter queue), and the lane sweep wakes it; and a
 * retry wait longer than the queue's delay needs no message at all (the sweep is its wake-up).
 */
export const LANE_SWEEP_GRACE_MS = 60_000;

const { sortKey: DUE_BY, partitionKey: LANE_SHARD } = OUTBOX_INDEX;

/** The lane's lock is free (never taken, or its lease ended) or already this owner's. */
const lockFreeFor = (owner: string, nowMs: number) => when.or(when.notExists('lockedUntil'), when.lt('lockedUntil', nowMs), when.eq('lockOwner', owner));

/**
 * Adds an event to its lane (idempotent: a string set); the lane's state after. With
 * `parkedDueBy` the lane is parked (its subscription's breaker is open): no wake-up is
 * due for it, and the lane sweep looks at it by that time unless something works it first.
 */
export async function addToLane(channel: ChannelRef, webhookId: string, contactKey: string, eventId: string, parkedDueBy?: number): Promise<LaneState> {
  const key = keys.deliveryLane(channel, webhookId, contactKey);
  // A lane already filed keeps its time (its holder's lease or its retry); a new one is due after the grace.
  const builder = update(key)
    .set('entity', LaneItem.tag)
    .add('waiting', new Set([eventId]))
    .set(LANE_SHARD, eventLaneShardOf(key))
    .setIfNotExists(DUE_BY, parkedDueBy ?? clock.now() + LANE_SWEEP_GRACE_MS);
  if (parkedDueBy !== undefined) builder.set('parked', true);
  return laneState(await builder.sendReturningOrThrow(LaneStateItem))!;
}

/**
 * Whether someone will work the lane without a new wake-up: a deliverer holds its lock
 * (its release fails while events wait, so it sees what was added), it waits for a
 * retry, whose wake-up is queued (or filed for the lane sweep), or it is parked behind
 * its subscription's open breaker (whose closing wakes it).
 */
export function laneInHand(state: LaneState, nowMs: number): boolean {
  if (state.parked) return true;
  return (state.lockedUntil !== undefined && state.lockedUntil >= nowMs) || (state.nextAttemptAt !== undefined && state.nextAttemptAt > nowMs);
}

/**
 * Parks the lane its holder found behind an open circuit breaker: the lock released, no
 * retry of its own (the head is due as soon as the breaker closes), and filed for the
 * lane sweep by `dueBy`. Only the holder's lock; false when it was lost meanwhile.
 */
export async function parkLane(channel: ChannelRef, webhookId: string, contactKey: string, owner: string, dueBy: number): Promise<boolean> {
  return update(keys.deliveryLane(channel, webhookId, contactKey))
    .set('parked', true)
    .set(DUE_BY, dueBy)
    .remove('lockOwner', 'lockedUntil', 'nextAttemptAt')
    .when(when.eq('lockOwner', owner))
    .send();
}

/** Parks a lane the sweep found past its time behind an open breaker (as {@link parkLane}): only while it is filed and no deliverer holds it. */
export async function parkFiledLane(key: Key, nowMs: number, dueBy: number): Promise<boolean> {
  return update(key)
    .set('parked', true)
    .set(DUE_BY, dueBy)
    .when(when.and(when.beginsWith(LANE_SHARD, EVENT_LANE_SHARD_PREFIX), when.or(when.notExists('lockedUntil'), when.lt('lockedUntil', nowMs))))
    .send();
}

/** One page of the parked lanes of a subscription (a Query of its lanes, `LANE#<webhookId>#`): their contacts, and where the next page starts. */
export async function parkedLanesPage(
  channel: ChannelRef,
  webhookId: string,
  startKey?: Record<string, unknown>,
): Promise<{ contactKeys: string[]; next?: Record<string, unknown> }> {
  const { pk, skPrefix } = keys.deliveryLanePrefix(channel, webhookId);
  const page = await queryPrefixPage(pk, skPrefix, ItemKey, {
    consistent: true,
    attributes: ['pk', 'sk'],
    filter: when.eq('parked', true),
    limit: 500,
    startKey,
  });
  return { contactKeys: page.items.map((key) => parseDeliveryLaneKey(key).contactKey), next: page.next };
}

/** Takes the lane's lock until `until` (ms) unless another deliverer holds it; the lane's state when taken. */
export async function lockLane(
  channel: ChannelRef,
  webhookId: string,
  contactKey: string,
  owner: string,
  nowMs: number,
  until: number,
): Promise<LaneState | undefined> {
  const item = await update(keys.deliveryLane(channel, webhookId, contactKey))
    .set('lockOwner', owner)
    .set('lockedUntil', until)
    .set(DUE_BY, until + LANE_SWEEP_GRACE_MS)
    .remove('parked')
    .when(lockFreeFor(owner, nowMs))
    .sendReturning(LaneStateItem);
  return laneState(item);
}

/** Takes a finished event out of the lane (and any retry wait), keeping the lock; the lane's state after. */
export async function finishLaneEvent(
  channel: ChannelRef,
  webhookId: string,
  contactKey: string,
  owner: string,
  eventId: string,
  until: number,
): Promise<LaneState | undefined> {
  const item = await update(keys.deliveryLane(channel, webhookId, contactKey))
    .set('lockedUntil', until)
    .set(DUE_BY, until + LANE_SWEEP_GRACE_MS)
    .deleteFromSet('waiting', new Set([eventId]))
    .remove('nextAttemptAt')
    .when(when.eq('lockOwner', owner))
    .sendReturning(LaneStateItem);
  return laneState(item);
}

/**
 * Takes a finished event out of the lane and releases the lock in one write, only when
 * it is the only event waiting (the lane is then empty). False when the condition did
 * not hold — another event waits (or the lock is lost): nothing written, and the caller
 * goes on with {@link finishLaneEvent}.
 */
export async function finishLastLaneEvent(channel: ChannelRef, webhookId: string, contactKey: string, owner: string, eventId: string): Promise<boolean> {
  return update(keys.deliveryLane(channel, webhookId, contactKey))
    .deleteFromSet('waiting', new Set([eventId]))
    .remove('nextAttemptAt', 'lockOwner', 'lockedUntil', LANE_SHARD, DUE_BY)
    .when(when.and(when.eq('lockOwner', owner), when.sizeIs('waiting', 1), when.contains('waiting', eventId)))
    .send();
}

/** Records when the lane's head is tried again. */
export async function deferLane(channel: ChannelRef, webhookId: string, contactKey: string, owner: string, nextAttemptAt: number): Promise<void> {
  await update(keys.deliveryLane(channel, webhookId, contactKey))
    .set('nextAttemptAt', nextAttemptAt)
    .set(DUE_BY, nextAttemptAt + LANE_SWEEP_GRACE_MS)
    .when(when.eq('lockOwner', owner))
    .send();
}

/** Releases the lock of a lane found empty, and takes it out of the lane sweep's index; false when an event was added meanwhile (or the lock is lost). */
export async function releaseEmptyLane(channel: ChannelRef, webhookId: string, contactKey: string, owner: string): Promise<boolean> {
  return update(keys.deliveryLane(channel, webhookId, contactKey))
    .remove('lockOwner', 'lockedUntil', LANE_SHARD, DUE_BY)
    .when(when.and(when.eq('lockOwner', owner), when.notExists('waiting')))
    .send();
}

/**
 * Releases the lock, only when nothing is waiting or the lane waits for a retry (which
 * has its wake-up queued): an event added while this deliverer held the lock makes the
 * release fail, so the holder goes on and nothing waits without a deliverer.
 */
export async function releaseLane(channel: ChannelRef, webhookId: string, contactKey: string, owner: string, nowMs: number): Promise<boolean> {
  return update(keys.deliveryLane(channel, webhookId, contactKey))
    .remove('lockOwner', 'lockedUntil')
    .when(when.and(when.eq('lockOwner', owner), when.or(when.notExists('waiting'), when.gt('nextAttemptAt', nowMs))))
    .send();
}

/**
 * Releases the lock with events still waiting, for a deliverer out of time that hands
 * the lane to a wake-up (queued after this write: should it be lost, the lane sweep
 * finds the lane). Only the holder's lock; false when it was lost meanwhile.
 */
export async function handOverLane(channel: ChannelRef, webhookId: string, contactKey: string, owner: string): Promise<boolean> {
  return update(keys.deliveryLane(channel, webhookId, contactKey))
    .remove('lockOwner', 'lockedUntil')
    .set(DUE_BY, clock.now() + LANE_SWEEP_GRACE_MS)
    .when(when.eq('lockOwner', owner))
    .send();
}

/**
 * Moves a lane the sweep has just woken to `dueBy`, so the next sweep leaves it to its
 * wake-up until then; only while it is still filed (not emptied meanwhile).
 */
export async function postponeLaneSweep(key: Key, dueBy: number): Promise<void> {
  await update(key).set(DUE_BY, dueBy).when(when.beginsWith(LANE_SHARD, EVENT_LANE_SHARD_PREFIX)).send();
}

/** The lane shards of the outbox index (the lane sweep reads them in turn). */
export const LANE_SHARDS = EVENT_LANE_PARTITIONS;

/** A lane as the sweep finds it: its key (to postpone it) and what names it in a wake-up. */
export interface FiledLane {
  key: Key;
  lane: { workspaceId: string; channelId: string; webhookId: string; contactKey: string };
}

/** One page of the lanes filed in lane shard `shard` past `upTo` (ms), oldest first, and where the next page starts. */
export async function lanesPastTheirTime(
  shard: string,
  upTo: number,
  startKey?: Record<string, unknown>,
): Promise<{ lanes: FiledLane[]; next?: Record<string, unknown> }> {
  const page = await dueOutboxPage(shard, upTo, { limit: 100, startKey });
  return { lanes: page.entries.map(({ key }) => ({ key, lane: parseDeliveryLaneKey(key) })), next: page.next };
}
