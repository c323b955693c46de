import * as v from 'valibot';
import { getItem, putItem, update, when } from './client';
import { entity, tagged, type Stored } from './entity';
import { keys } from './keys';
import type { ChannelRef } from '../identity';

/**
 * Integrators' webhook subscriptions. A channel's subscriptions (at most 10) live in one
 * item, a map by id with a `version`: webhooks/list, a lookup by id and the deliverer's
 * fan-out are one GetItem each, and webhooks/manage writes with the version it read, so
 * the cap and the url match key hold under concurrent calls without a transaction.
 * Delivery statistics are written path by path (`subs.<id>.lastDeliveryAt`), without the
 * version, so they never clobber a concurrent manage call and it never clobbers them.
 */

/** A signing secret, sealed (shared/events/secret-box.ts); a rotated-out one signs until `retiresAt`. */
const StoredSecret = v.object({ sealed: v.string(), createdAt: v.string(), retiresAt: v.optional(v.string()) });
export type StoredSecret = v.InferOutput<typeof StoredSecret>;

const Subscription = v.object({
  id: v.string(),
  url: v.string(),
  /** Event types, or `['*']` for every type. */
  events: v.array(v.string()),
  isActive: v.boolean(),
  description: v.nullable(v.string()),
  createdAt: v.string(),
  /** The API user who created it (absent on subscriptions made before it was recorded). */
  createdBy: v.nullish(v.string()),
  /** The API user who issued its current secret: the creator until a rotation. */
  rotatedBy: v.nullish(v.string()),
  /** Newest first. */
  secrets: v.array(StoredSecret),
  disabledReason: v.nullish(v.string()),
  /** The last successful delivery (a 2xx). */
  lastDeliveryAt: v.nullish(v.string()),
  /** The last attempt, whatever its outcome; `lastStatusCode` is its answer. */
  lastAttemptAt: v.nullish(v.string()),
  lastStatusCode: v.nullish(v.number()),
  /** The first failed attempt since the last success: the receiver has been failing since then. */
  failingSince: v.nullish(v.string()),
  /** Failed attempts since the last success (the circuit breaker's place in the retry schedule). */
  failures: v.nullish(v.number()),
  /** While set, the circuit breaker is open: no event is attempted before this time (ms), and then one probes (shared/domain/event-delivery.ts). */
  probeAt: v.nullish(v.number()),
  /** While the breaker is open, the contact whose lane holds the probe (the one lane with a wake-up at `probeAt`; the others are parked). */
  probeLane: v.nullish(v.string()),
});
export type SubscriptionRecord = v.InferOutput<typeof Subscription>;

/** A channel's subscriptions: one item, a map by id, with the version every manage call writes under. */
export const SubscriptionsItem = entity('webhookSubscriptions', {
  subs: v.record(v.string(), Subscription),
  version: v.number(),
});

export interface SubscriptionSet extends Pick<Stored<typeof SubscriptionsItem>, 'subs'> {
  /** 0 when the channel has no subscriptions item yet. */
  version: number;
}

/** Reads the channel's subscriptions (consistent: manage decides on it). */
export async function getSubscriptions(channel: ChannelRef): Promise<SubscriptionSet> {
  const item = await getItem(keys.webhookSubscriptions(channel), SubscriptionsItem, { consistent: true });
  return { subs: item?.subs ?? {}, version: item?.version ?? 0 };
}

/**
 * Adds a subscription if the set is still at `version`; false when another call changed
 * it first (the caller reads again and decides again).
 */
export async function addSubscription(channel: ChannelRef, sub: SubscriptionRecord, version: number): Promise<boolean> {
  const key = keys.webhookSubscriptions(channel);
  if (version === 0) return putItem(tagged(SubscriptionsItem, key, { subs: { [sub.id]: sub }, version: 1 }), when.itemAbsent());
  return update(key)
    .set(['subs', sub.id], sub)
    .set('version', version + 1)
    .when(when.eq('version', version))
    .send();
}

export type SubscriptionChanges = Partial<Pick<SubscriptionRecord, 'events' | 'isActive' | 'description' | 'secrets' | 'rotatedBy' | 'disabledReason'>>;

/** Sets the managed fields of an existing subscription if the set is still at `version`. */
export async function updateSubscription(channel: ChannelRef, id: string, changes: SubscriptionChanges, version: number): Promise<boolean> {
  const builder = update(keys.webhookSubscriptions(channel));
  // An undefined change sets nothing (the builder skips it); null is written as null.
  for (const [field, value] of Object.entries(changes)) builder.set(['subs', id, field], value);
  return builder
    .set('version', version + 1)
    .when(when.and(when.eq('version', version), when.exists(['subs', id])))
    .send();
}

/**
 * Removes a subscription from the set; false when it is not there (never was, or a
 * concurrent call removed it). The version moves on, so a manage call that read the set
 * before decides again.
 */
export async function removeSubscription(channel: ChannelRef, id: string): Promise<boolean> {
  return update(keys.webhookSubscriptions(channel))
    .remove(['subs', id])
    .add('version', 1)
    .when(when.exists(['subs', id]))
    .send();
}

export interface DeliveryOutcome {
  at: string;
  statusCode: number | null;
  /** A failed attempt: `failingSince` set (when not set yet), one more failure counted, and the circuit breaker open until `probeAt` (ms), its probe held by the lane of contact `probeLane`. */
  failed?: { probeAt: number; probeLane: string };
  /** A delivery succeeded: `failingSince` cleared and the circuit breaker closed. */
  succeeded?: boolean;
  /** 410 Gone: the subscription is deactivated and its circuit breaker closed (its parked lanes then settle). */
  gone?: boolean;
}

/**
 * Records a delivery attempt's outcome on its subscription, field by field (no version:
 * statistics never race manage calls). True when it closed an open circuit breaker — a
 * success, or a 410 that deactivates the subscription — whoever opened it (the item as it
 * was before the write tells): the caller then wakes the breaker's parked lanes, to their
 * attempts or, the subscription gone, to fail at once rather than wait for the lane sweep.
 */
export async function recordSubscriptionOutcome(channel: ChannelRef, id: string, outcome: DeliveryOutcome): Promise<boolean> {
  const field = (name: keyof SubscriptionRecord) => ['subs', id, name];
  const builder = update(keys.webhookSubscriptions(channel)).set(field('lastAttemptAt'), outcome.at).set(field('lastStatusCode'), outcome.statusCode);
  if (outcome.failed)
    builder
      .setIfNotExists(field('failingSince'), outcome.at)
      .add(field('failures'), 1)
      .set(field('probeAt'), outcome.failed.probeAt)
      .set(field('probeLane'), outcome.failed.probeLane);
  if (outcome.gone) builder.set(field('isActive'), false).set(field('disabledReason'), 'gone').remove(field('probeAt'), field('probeLane'));
  // Only a success is a delivery: lastDeliveryAt never moves on a failed attempt.
  if (outcome.succeeded)
    builder.set(field('lastDeliveryAt'), outcome.at).remove(field('failingSince'), field('failures'), field('probeAt'), field('probeLane'));
  // A subscription deleted meanwhile keeps no statistics: the condition fails, nothing is written.
  builder.when(when.exists(['subs', id]));
  if (!outcome.succeeded && !outcome.gone) {
    await builder.send();
    return false;
  }
  const before = await builder.sendReturning(SubscriptionsItem, 'ALL_OLD');
  return typeof before?.subs[id]?.probeAt === 'number';
}

/**
 * Takes the probe of an open circuit breaker whose time has come, for the lane of contact
 * `lane`: moves `probeAt` (still at `due`, as read) on to `until`, so no other lane
 * attempts while the probe's outcome is pending. False when another lane took it first
 * (or the breaker closed meanwhile).
 */
export async function takeProbe(channel: ChannelRef, id: string, lane: string, due: number, until: number): Promise<boolean> {
  return update(keys.webhookSubscriptions(channel))
    .set(['subs', id, 'probeAt'], until)
    .set(['subs', id, 'probeLane'], lane)
    .when(when.eq(['subs', id, 'probeAt'], due))
    .send();
}
