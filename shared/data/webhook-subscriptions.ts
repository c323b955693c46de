import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, sendIfCondition, tableName } from './client';
import { keys, type ChannelRef } from './keys';

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
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.webhookSubscriptions(channel), ConsistentRead: true }));
  return { subs: (Item?.subs as Record<string, SubscriptionRecord> | undefined) ?? {}, version: (Item?.version as number | undefined) ?? 0 };
}

/**
 * Adds a subscription if the set is still at `version`; false when another call changed
 * it first (the caller reads again and decides again).
 */
export async function addSubscription(channel: ChannelRef, sub: SubscriptionRecord, version: number): Promise<boolean> {
  const key = keys.webhookSubscriptions(channel);
  if (version === 0) {
    return sendIfCondition(
      new PutCommand({
        TableName: tableName(),
        Item: { ...key, entity: 'webhookSubscriptions', subs: { [sub.id]: sub }, version: 1 },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }
  return sendIfCondition(
    new UpdateCommand({
      TableName: tableName(),
      Key: key,
      UpdateExpression: 'SET subs.#id = :sub, version = :next',
      ConditionExpression: 'version = :version',
      ExpressionAttributeNames: { '#id': sub.id },
      ExpressionAttributeValues: { ':sub': sub, ':version': version, ':next': version + 1 },
    }),
  );
}

export type SubscriptionChanges = Partial<Pick<SubscriptionRecord, 'events' | 'isActive' | 'description' | 'secrets' | 'disabledReason'>>;

/** Sets the managed fields of an existing subscription if the set is still at `version`. */
export async function updateSubscription(channel: ChannelRef, id: string, changes: SubscriptionChanges, version: number): Promise<boolean> {
  const entries = Object.entries(changes).filter(([, value]) => value !== undefined);
  const names: Record<string, string> = { '#id': id };
  const values: Record<string, unknown> = { ':version': version, ':next': version + 1 };
  const sets = entries.map(([field, value], i) => {
    names[`#f${i}`] = field;
    values[`:v${i}`] = value;
    return `subs.#id.#f${i} = :v${i}`;
  });
  return sendIfCondition(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.webhookSubscriptions(channel),
      UpdateExpression: `SET ${[...sets, 'version = :next'].join(', ')}`,
      ConditionExpression: 'version = :version AND attribute_exists(subs.#id)',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    }),
  );
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
  const sets = ['subs.#id.lastDeliveryAt = :at', 'subs.#id.lastStatusCode = :code'];
  const values: Record<string, unknown> = { ':at': outcome.at, ':code': outcome.statusCode };
  if (outcome.failing) sets.push('subs.#id.failingSince = if_not_exists(subs.#id.failingSince, :at)');
  if (outcome.gone) {
    sets.push('subs.#id.isActive = :false', 'subs.#id.disabledReason = :gone');
    Object.assign(values, { ':false': false, ':gone': 'gone' });
  }
  await sendIfCondition(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.webhookSubscriptions(channel),
      UpdateExpression: `SET ${sets.join(', ')}${outcome.succeeded ? ' REMOVE subs.#id.failingSince' : ''}`,
      ConditionExpression: 'attribute_exists(subs.#id)',
      ExpressionAttributeNames: { '#id': id },
      ExpressionAttributeValues: values,
    }),
  );
}
