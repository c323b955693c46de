import { getItem, putItem, update, when } from './client';
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
export interface StoredSecret {
  sealed: string;
  createdAt: string;
  retiresAt?: string;
}

export interface SubscriptionRecord {
  id: string;
  url: string;
  /** Event types, or `['*']` for every type. */
  events: string[];
  isActive: boolean;
  description: string | null;
  createdAt: string;
  /** Newest first. */
  secrets: StoredSecret[];
  disabledReason?: string | null;
  lastDeliveryAt?: string | null;
  lastStatusCode?: number | null;
  failingSince?: string | null;
}

export interface SubscriptionSet {
  subs: Record<string, SubscriptionRecord>;
  /** 0 when the channel has no subscriptions item yet. */
  version: number;
}

/** Reads the channel's subscriptions (consistent: manage decides on it). */
export async function getSubscriptions(channel: ChannelRef): Promise<SubscriptionSet> {
  const item = await getItem<Partial<SubscriptionSet>>(keys.webhookSubscriptions(channel), { consistent: true });
  return { subs: item?.subs ?? {}, version: item?.version ?? 0 };
}

/**
 * Adds a subscription if the set is still at `version`; false when another call changed
 * it first (the caller reads again and decides again).
 */
export async function addSubscription(channel: ChannelRef, sub: SubscriptionRecord, version: number): Promise<boolean> {
  const key = keys.webhookSubscriptions(channel);
  if (version === 0) return putItem({ ...key, entity: 'webhookSubscriptions', subs: { [sub.id]: sub }, version: 1 }, when.itemAbsent());
  return update(key)
    .set(['subs', sub.id], sub)
    .set('version', version + 1)
    .when(when.eq('version', version))
    .send();
}

export type SubscriptionChanges = Partial<Pick<SubscriptionRecord, 'events' | 'isActive' | 'description' | 'secrets' | 'disabledReason'>>;

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

export interface DeliveryOutcome {
  at: string;
  statusCode: number | null;
  /** Set `failingSince` (when not set yet): the last retry of an event failed. */
  failing?: boolean;
  /** Clears `failingSince`: a delivery succeeded. */
  succeeded?: boolean;
  /** 410 Gone: the subscription is deactivated. */
  gone?: boolean;
}

/** Records a delivery attempt's outcome on its subscription, field by field (no version: statistics never race manage calls). */
export async function recordSubscriptionOutcome(channel: ChannelRef, id: string, outcome: DeliveryOutcome): Promise<void> {
  const field = (name: keyof SubscriptionRecord) => ['subs', id, name];
  const builder = update(keys.webhookSubscriptions(channel)).set(field('lastDeliveryAt'), outcome.at).set(field('lastStatusCode'), outcome.statusCode);
  if (outcome.failing) builder.setIfNotExists(field('failingSince'), outcome.at);
  if (outcome.gone) builder.set(field('isActive'), false).set(field('disabledReason'), 'gone');
  if (outcome.succeeded) builder.remove(field('failingSince'));
  // A subscription deleted meanwhile keeps no statistics: the condition fails, nothing is written.
  await builder.when(when.exists(['subs', id])).send();
}
