import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { UpdateCommandOutput } from '@aws-sdk/lib-dynamodb';
import { db, isConditionFailure, sendIfCondition, tableName } from './client';
import { keys, type ChannelRef } from './keys';

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

export interface EventLogRecord {
  id: string;
  type: string;
  /** The JSON body every delivery of the event carries, byte for byte. */
  body: string;
  contactKey: string;
}

/** Records an event in the log (idempotent: the same event id writes the same item). */
export async function putEventLog(channel: ChannelRef, event: EventLogRecord, nowMs: number): Promise<void> {
  await db.send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.event(channel, event.id), entity: 'event', ...event, expiresAt: epochSeconds(nowMs) + EVENT_RETENTION_SECONDS },
    }),
  );
}

export async function getEventLog(channel: ChannelRef, eventId: string): Promise<EventLogRecord | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.event(channel, eventId) }));
  return Item as EventLogRecord | undefined;
}

/** Events after `afterId` (exclusive; from the oldest when undefined), oldest first, younger than the retention. */
export async function listEventLog(channel: ChannelRef, afterId: string | undefined, limit: number, nowMs: number): Promise<EventLogRecord[]> {
  const { pk, skPrefix } = keys.eventPrefix(channel);
  // Event ids begin with their time: the key condition starts at the oldest event still kept (TTL deletion lags, and dynalite never deletes).
  const oldestKept = `evt_${(nowMs - EVENT_RETENTION_SECONDS * 1000).toString(36).padStart(9, '0')}`;
  const from = afterId && afterId > oldestKept ? `${skPrefix}${afterId}~` : `${skPrefix}${oldestKept}`;
  const { Items = [] } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :end',
      ExpressionAttributeValues: { ':pk': pk, ':from': from, ':end': `${skPrefix}~` },
      Limit: limit,
      ConsistentRead: true,
    }),
  );
  return Items as EventLogRecord[];
}

// ---- deliveries ---------------------------------------------------------------------

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface DeliveryRecord {
  webhookId: string;
  eventId: string;
  type: string;
  contactKey: string;
  status: DeliveryStatus;
  attempts: number;
  lastAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
}

/** Creates an event's delivery to a subscription; false when it exists (a repeated fan-out). */
export async function createDelivery(channel: ChannelRef, delivery: DeliveryRecord, nowMs: number): Promise<boolean> {
  return sendIfCondition(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.eventDelivery(channel, delivery.webhookId, delivery.eventId),
        entity: 'eventDelivery',
        ...delivery,
        expiresAt: epochSeconds(nowMs) + DELIVERY_RETENTION_SECONDS,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

export async function getDelivery(channel: ChannelRef, webhookId: string, eventId: string): Promise<DeliveryRecord | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.eventDelivery(channel, webhookId, eventId), ConsistentRead: true }));
  return Item as DeliveryRecord | undefined;
}

/** Writes a delivery's state after an attempt (or a redelivery's reset); the TTL moves with it. */
export async function updateDelivery(channel: ChannelRef, webhookId: string, eventId: string, changes: Partial<DeliveryRecord>, nowMs: number): Promise<void> {
  const entries = Object.entries({ ...changes, expiresAt: epochSeconds(nowMs) + DELIVERY_RETENTION_SECONDS });
  await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.eventDelivery(channel, webhookId, eventId),
      UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(entries.map(([field], i) => [`#f${i}`, field])),
      ExpressionAttributeValues: Object.fromEntries(entries.map(([, value], i) => [`:v${i}`, value])),
    }),
  );
}

/**
 * A subscription's deliveries, newest event first, from after `beforeEventId`
 * (exclusive), optionally of one status. Reads query pages until `limit` match or
 * the log ends; returns whether more may follow.
 */
export async function listDeliveries(
  channel: ChannelRef,
  webhookId: string,
  options: { status?: DeliveryStatus; beforeEventId?: string; limit: number },
): Promise<{ deliveries: DeliveryRecord[]; more: boolean }> {
  const { pk, skPrefix } = keys.eventDeliveryPrefix(channel, webhookId);
  const deliveries: DeliveryRecord[] = [];
  let startKey: Record<string, unknown> | undefined;
  for (let page = 0; page < 10; page++) {
    const { Items = [], LastEvaluatedKey } = await db.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ...(options.status ? { FilterExpression: '#status = :status', ExpressionAttributeNames: { '#status': 'status' } } : {}),
        ExpressionAttributeValues: {
          ':pk': pk,
          ':from': skPrefix,
          ':to': options.beforeEventId ? `${skPrefix}${options.beforeEventId}` : `${skPrefix}~`,
          ...(options.status ? { ':status': options.status } : {}),
        },
        ScanIndexForward: false,
        ExclusiveStartKey: startKey,
        Limit: options.limit + 1,
        ConsistentRead: true,
      }),
    );
    for (const item of Items) {
      const delivery = item as DeliveryRecord;
      if (delivery.eventId === options.beforeEventId) continue;
      if (deliveries.length === options.limit) return { deliveries, more: true };
      deliveries.push(delivery);
    }
    if (!LastEvaluatedKey) return { deliveries, more: false };
    startKey = LastEvaluatedKey;
  }
  return { deliveries, more: true };
}

/** Sends a conditional update: its output when the condition held, undefined when it did not. */
async function updateIfCondition(command: UpdateCommand): Promise<UpdateCommandOutput | undefined> {
  try {
    return await db.send(command);
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

// ---- lanes --------------------------------------------------------------------------

/** A contact's delivery lane to one subscription: the events waiting (ids sort by time), a lock, the next retry. */
export interface LaneState {
  waiting: string[];
  nextAttemptAt?: number;
  lockOwner?: string;
  lockedUntil?: number;
}

function laneState(item: Record<string, unknown> | undefined): LaneState {
  const waiting = item?.waiting as Set<string> | undefined;
  return {
    waiting: waiting ? [...waiting].sort() : [],
    nextAttemptAt: item?.nextAttemptAt as number | undefined,
    lockOwner: item?.lockOwner as string | undefined,
    lockedUntil: item?.lockedUntil as number | undefined,
  };
}

/** Adds an event to its lane (idempotent: a string set). */
export async function addToLane(channel: ChannelRef, webhookId: string, contactKey: string, eventId: string): Promise<void> {
  await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.deliveryLane(channel, webhookId, contactKey),
      UpdateExpression: 'SET entity = :entity ADD waiting :event',
      ExpressionAttributeValues: { ':entity': 'deliveryLane', ':event': new Set([eventId]) },
    }),
  );
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
  const result = await updateIfCondition(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.deliveryLane(channel, webhookId, contactKey),
      UpdateExpression: 'SET lockOwner = :owner, lockedUntil = :until',
      ConditionExpression: 'attribute_not_exists(lockedUntil) OR lockedUntil < :now OR lockOwner = :owner',
      ExpressionAttributeValues: { ':owner': owner, ':until': until, ':now': nowMs },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return result ? laneState(result.Attributes) : undefined;
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
  const result = await updateIfCondition(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.deliveryLane(channel, webhookId, contactKey),
      UpdateExpression: 'SET lockedUntil = :until DELETE waiting :event REMOVE nextAttemptAt',
      ConditionExpression: 'lockOwner = :owner',
      ExpressionAttributeValues: { ':owner': owner, ':until': until, ':event': new Set([eventId]) },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return result ? laneState(result.Attributes) : undefined;
}

/** Records when the lane's head is tried again. */
export async function deferLane(channel: ChannelRef, webhookId: string, contactKey: string, owner: string, nextAttemptAt: number): Promise<void> {
  await sendIfCondition(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.deliveryLane(channel, webhookId, contactKey),
      UpdateExpression: 'SET nextAttemptAt = :next',
      ConditionExpression: 'lockOwner = :owner',
      ExpressionAttributeValues: { ':owner': owner, ':next': nextAttemptAt },
    }),
  );
}

/**
 * Releases the lock, only when nothing is waiting or the lane waits for a retry (which
 * has its wake-up queued): an event added while this deliverer held the lock makes the
 * release fail, so the holder goes on and nothing waits without a deliverer.
 */
export async function releaseLane(channel: ChannelRef, webhookId: string, contactKey: string, owner: string, nowMs: number): Promise<boolean> {
  return sendIfCondition(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.deliveryLane(channel, webhookId, contactKey),
      UpdateExpression: 'REMOVE lockOwner, lockedUntil',
      ConditionExpression: 'lockOwner = :owner AND (attribute_not_exists(waiting) OR nextAttemptAt > :now)',
      ExpressionAttributeValues: { ':owner': owner, ':now': nowMs },
    }),
  );
}

/** Clears a lane's retry wait, so a redelivery goes out at the next wake-up. */
export async function clearLaneWait(channel: ChannelRef, webhookId: string, contactKey: string): Promise<void> {
  await db.send(
    new UpdateCommand({ TableName: tableName(), Key: keys.deliveryLane(channel, webhookId, contactKey), UpdateExpression: 'REMOVE nextAttemptAt' }),
  );
}
