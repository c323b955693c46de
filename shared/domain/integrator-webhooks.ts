import * as v from 'valibot';
import { clock } from '../clock';
import type { ChannelRef } from '../identity';
import {
  addSubscription,
  getSubscriptions,
  removeSubscription,
  updateSubscription,
  type StoredSecret,
  type SubscriptionRecord,
} from '../data/webhook-subscriptions';
import { ConflictError, InvalidInputError, NotFoundError } from '../errors';
import {
  addToLane,
  createDelivery,
  deleteSubscriptionRecords,
  DeliveryItem,
  getEventLog,
  listDeliveries,
  listEventLog,
  updateDelivery,
  type EventDeliveryStatus,
} from '../data/events';
import { EVENT_ID_PATTERN, EVENT_TYPES, eventIdTime, subscribedTo } from '../events/event-types';
import { Event, type AnyEvent } from '../events/event-schemas';
import { secretBox } from '../events/secret-box';
import { newWebhookSecret } from '../events/signing';
import { checkWebhookUrl, urlPolicyFromEnv } from '../events/url-policy';
import { newId } from '../ids';
import { enqueueEvent } from '../queue/event-queue';
import { described } from '../schema/docs';
import { component, created, nullableTimestamp, viewOf } from '../schema/responses';
import { decodeCursor, encodeCursor } from './cursors';
import { erasedEntries } from './erased-events';
import { eventWithVisibleContent } from './retention';

/**
 * webhooks/manage, webhooks/list and webhooks/delete: integrators' subscriptions to the channel's events
 * (docs/EVENTS.md). The url is the match key within the channel; the secret is shown
 * only when created or rotated and stored sealed; a rotated-out secret keeps signing
 * for 24 hours beside the new one.
 */

export const MAX_WEBHOOKS_PER_CHANNEL = 10;
export const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;
/** Each lost race means another call won, so at most one try per subscription a channel may hold, and a few spare. */
const MANAGE_ATTEMPTS = MAX_WEBHOOKS_PER_CHANNEL + 3;

/** What every answer about a subscription shows. */
const webhookEntries = {
  id: described(v.string(), 'Webhook subscription id', 'wh_01jhx3k8m0'),
  channelId: described(v.string(), 'The channel whose events it receives', 'ch_demoacmesupport'),
  url: described(v.string(), 'Where deliveries are POSTed (the match key in the channel)', 'https://example.com/hooks/workspace'),
  events: described(v.array(v.string()), 'Event types it receives; `*` for every type', ['message.status', 'message.received']),
  isActive: described(v.boolean(), 'Whether deliveries are made', true),
  description: described(v.nullable(v.string()), 'Free text, or null', 'CRM sync'),
};

/** webhooks/manage's answer: the subscription's fields, whether it was created, and a new secret when one was made. */
export const WebhookResult = component(
  'WebhookResult',
  v.strictObject({
    ...webhookEntries,
    created,
    secret: v.optional(
      described(
        v.string(),
        'The signing secret (Standard Webhooks `whsec_…`): only when created or rotated, never shown again',
        'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      ),
    ),
  }),
);
export type ManagedWebhook = v.InferOutput<typeof WebhookResult>;

/** A subscription as webhooks/list shows it: its fields and how its deliveries fare. */
export const Webhook = component(
  'Webhook',
  v.strictObject({
    ...webhookEntries,
    disabledReason: described(v.nullable(v.string()), '`gone` when a 410 answer deactivated it, or null', null),
    lastDeliveryAt: nullableTimestamp('The last successful delivery (a 2xx answer; failed attempts do not move it)'),
    lastAttemptAt: nullableTimestamp('The last delivery attempt, whatever its outcome (its answer is lastStatusCode)'),
    lastStatusCode: described(v.nullable(v.number()), 'HTTP status of the last attempt, or null (no answer)', 200),
    failingSince: nullableTimestamp(
      'Since when the receiver has been failing: the first failed attempt since the last success, or null. While set, new events wait for the retry schedule instead of an attempt each',
    ),
    createdBy: described(v.nullable(v.string()), 'The API user who created it, or null (created before it was recorded)', 'usr_01jhx3k8m0'),
    rotatedBy: described(v.nullable(v.string()), 'The API user who issued its current secret (the creator until a rotation), or null', 'usr_01jhx3k8m0'),
  }),
);
export type WebhookView = v.InferOutput<typeof Webhook>;

export interface ManageWebhookInput {
  url: string;
  events?: string[];
  isActive?: boolean;
  /** An empty string clears it. */
  description?: string;
  rotateSecret?: boolean;
}

/** The encryption context of a subscription's secrets: a sealed secret opens only on its own subscription. */
export const secretContext = (workspaceId: string, channelId: string, webhookId: string) => ({ workspaceId, channelId, webhookId });

/** `*`, absent or empty → every type; otherwise known types only (400 naming `events`). */
function eventTypes(events: string[] | undefined): string[] | undefined {
  if (events === undefined) return undefined;
  if (events.length === 0 || events.includes('*')) return ['*'];
  const unknown = events.filter((type) => !(EVENT_TYPES as readonly string[]).includes(type));
  if (unknown.length)
    throw new InvalidInputError(`events names unknown event types: ${unknown.join(', ')}. Known: ${EVENT_TYPES.join(', ')}, or * for every type.`, 'events');
  return events;
}

/** The canonical form of a registered url (the match key): parsed and re-serialized. */
function canonicalUrl(raw: string): string {
  return checkWebhookUrl(raw, urlPolicyFromEnv()).href;
}

function view(channelId: string, sub: SubscriptionRecord): WebhookView {
  return viewOf(Webhook, {
    ...sub,
    channelId,
    disabledReason: sub.disabledReason ?? null,
    lastDeliveryAt: sub.lastDeliveryAt ?? null,
    lastAttemptAt: sub.lastAttemptAt ?? null,
    lastStatusCode: sub.lastStatusCode ?? null,
    failingSince: sub.failingSince ?? null,
    createdBy: sub.createdBy ?? null,
    rotatedBy: sub.rotatedBy ?? null,
  });
}

/** A sealed new secret, and the previous ones that still sign (the newest of them for 24 hours more). */
async function rotatedSecrets(
  workspaceId: string,
  channelId: string,
  id: string,
  previous: StoredSecret[],
): Promise<{ secret: string; secrets: StoredSecret[] }> {
  const now = clock.now();
  const secret = newWebhookSecret();
  const sealed = await secretBox().seal(secret, secretContext(workspaceId, channelId, id));
  const current = previous.find((s) => !s.retiresAt);
  const kept = current ? [{ ...current, retiresAt: new Date(now + SECRET_OVERLAP_MS).toISOString() }] : [];
  return { secret, secrets: [{ sealed, createdAt: new Date(now).toISOString() }, ...kept] };
}

/** webhooks/manage: creates the subscription for the url, or updates the one registered for it; `userId` (the caller) is recorded as its creator or rotator. */
export async function manageWebhook(channel: ChannelRef, userId: string, input: ManageWebhookInput): Promise<ManagedWebhook> {
  const { workspaceId, channelId } = channel;
  const url = canonicalUrl(input.url);
  const events = eventTypes(input.events);
  const description = input.description === undefined ? undefined : input.description || null;
  for (let attempt = 0; attempt < MANAGE_ATTEMPTS; attempt++) {
    const { subs, version } = await getSubscriptions({ workspaceId, channelId });
    const existing = Object.values(subs).find((sub) => sub.url === url);
    if (!existing) {
      if (Object.keys(subs).length >= MAX_WEBHOOKS_PER_CHANNEL) {
        throw new InvalidInputError(
          `This channel already has the maximum of ${MAX_WEBHOOKS_PER_CHANNEL} webhook subscriptions; update an existing one (by its url) instead.`,
          'url',
          'limit_reached',
        );
      }
      const id = newId('wh');
      const { secret, secrets } = await rotatedSecrets(workspaceId, channelId, id, []);
      const sub: SubscriptionRecord = {
        id,
        url,
        events: events ?? ['*'],
        isActive: input.isActive ?? true,
        description: description ?? null,
        createdAt: clock.nowIso(),
        createdBy: userId,
        rotatedBy: userId,
        secrets,
        disabledReason: null,
      };
      if (await addSubscription({ workspaceId, channelId }, sub, version)) return { ...managed(channelId, sub, true), secret };
      await backoff(attempt);
      continue;
    }
    const rotation = input.rotateSecret ? await rotatedSecrets(workspaceId, channelId, existing.id, existing.secrets) : undefined;
    // Activating again (after a 410 or by hand) clears why it was disabled.
    const changes = {
      events,
      isActive: input.isActive,
      description,
      secrets: rotation?.secrets,
      rotatedBy: rotation ? userId : undefined,
      disabledReason: input.isActive === true ? null : undefined,
    };
    if (await updateSubscription({ workspaceId, channelId }, existing.id, changes, version)) {
      const updated = { ...existing, ...Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) } as SubscriptionRecord;
      return { ...managed(channelId, updated, false), ...(rotation ? { secret: rotation.secret } : {}) };
    }
    await backoff(attempt);
  }
  throw new ConflictError("The channel's webhooks changed concurrently too often; retry.", { parameter: 'url' });
}

/** A short random pause after a lost race, so concurrent calls spread out. */
const backoff = (attempt: number) => new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * (attempt + 1)));

function managed(channelId: string, sub: SubscriptionRecord, created: boolean): ManagedWebhook {
  return viewOf(WebhookResult, { ...sub, channelId, created });
}

/** webhooks/list: the channel's subscriptions, oldest first, never a secret. */
export async function listWebhooks(channel: ChannelRef): Promise<WebhookView[]> {
  const { workspaceId, channelId } = channel;
  const { subs } = await getSubscriptions({ workspaceId, channelId });
  return Object.values(subs)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
    .map((sub) => view(channelId, sub));
}

/** One subscription of the channel by id; unknown, or another channel's or workspace's → the same 404. */
export async function findWebhook(channel: ChannelRef, webhookId: string): Promise<SubscriptionRecord> {
  const { workspaceId, channelId } = channel;
  const { subs } = await getSubscriptions({ workspaceId, channelId });
  const sub = Object.hasOwn(subs, webhookId) ? subs[webhookId] : undefined;
  if (!sub) throw new NotFoundError('No webhook with that id in this channel.', { parameter: 'webhookId' });
  return sub;
}

// ---- the delivery log, redelivery and the events feed --------------------------------

/** A delivery as webhooks/deliveries shows it: the record without the keys it is filed under. */
export const WebhookDelivery = component(
  'WebhookDelivery',
  v.strictObject({
    eventId: described(DeliveryItem.entries.eventId, 'The event (also the `webhook-id` header)', 'evt_0mi2k3x9a3f9c2b1d4e5f6a7b8'),
    type: described(DeliveryItem.entries.type, 'Event type', 'message.status'),
    status: described(DeliveryItem.entries.status, 'pending until a 2xx or the last retry', 'succeeded'),
    attempts: described(DeliveryItem.entries.attempts, 'Attempts made', 1),
    lastAttemptAt: nullableTimestamp('The last attempt'),
    lastStatusCode: described(DeliveryItem.entries.lastStatusCode, 'HTTP status of the last attempt, or null (no answer)', 200),
    lastError: described(DeliveryItem.entries.lastError, 'Why the last attempt failed, or null', null),
    nextAttemptAt: nullableTimestamp('The next retry'),
  }),
);
export type DeliveryView = v.InferOutput<typeof WebhookDelivery>;

/** What webhooks/redeliver answers. */
export const Redelivery = component(
  'Redelivery',
  v.strictObject({
    webhookId: described(v.string(), 'The subscription', 'wh_01jhx3k8m0'),
    eventId: described(v.string(), 'The event', 'evt_0mi2k3x9a3f9c2b1d4e5f6a7b8'),
    status: described(v.literal('pending'), 'Queued for delivery', 'pending'),
  }),
);

/** An event as events/list shows it: exactly the body its webhook deliveries carry (shared/events/event-schemas.ts). */
export { Event };

/** webhooks/deliveries: a subscription's deliveries, newest event first, cursor-paged. */
export async function webhookDeliveries(
  channel: ChannelRef,
  input: { webhookId: string; status?: EventDeliveryStatus; limit?: number; cursor?: string },
): Promise<{ deliveries: DeliveryView[]; nextCursor: string | null }> {
  const { workspaceId, channelId } = channel;
  const query = `deliveries:${input.webhookId}:${input.status ?? '*'}`;
  const before = input.cursor === undefined ? undefined : await decodeCursor(input.cursor, channelId, query);
  await findWebhook(channel, input.webhookId);
  const limit = input.limit ?? 50;
  const { deliveries, more } = await listDeliveries({ workspaceId, channelId }, input.webhookId, { status: input.status, beforeEventId: before, limit });
  const views = deliveries.map((delivery) => viewOf(WebhookDelivery, delivery));
  return { deliveries: views, nextCursor: more && views.length ? await encodeCursor(channelId, query, views[views.length - 1].eventId) : null };
}

/**
 * webhooks/redeliver: the event goes to the subscription again (a new delivery, the same
 * webhook-id), behind the contact's earlier events. Only an event the subscription could
 * have received: of a type it subscribes to, not older than it, still kept; else 404.
 */
export async function redeliverEvent(channel: ChannelRef, webhookId: string, eventId: string): Promise<v.InferOutput<typeof Redelivery>> {
  const { workspaceId, channelId } = channel;
  const sub = await findWebhook(channel, webhookId);
  const event = EVENT_ID_PATTERN.test(eventId) ? await getEventLog({ workspaceId, channelId }, eventId) : undefined;
  if (!event) throw new NotFoundError('No event with that id in this channel.', { parameter: 'eventId' });
  // Only what the subscription could have received (INTERFACE §14).
  if (!subscribedTo(sub.events, event.type)) throw new NotFoundError(`The webhook does not subscribe to ${event.type} events.`, { parameter: 'eventId' });
  if (eventIdTime(eventId) < Date.parse(sub.createdAt)) throw new NotFoundError('The event is older than the webhook.', { parameter: 'eventId' });
  if (!sub.isActive) throw new ConflictError('The webhook is inactive; activate it with webhooks/manage (isActive true) first.', { parameter: 'webhookId' });
  const now = clock.now();
  const reset = {
    webhookId,
    eventId,
    type: event.type,
    contactKey: event.contactKey,
    status: 'pending' as const,
    attempts: 0,
    lastAttemptAt: null,
    lastStatusCode: null,
    lastError: null,
    nextAttemptAt: null,
  };
  if (!(await createDelivery({ workspaceId, channelId }, reset, now))) await updateDelivery({ workspaceId, channelId }, webhookId, eventId, reset, now);
  await addToLane({ workspaceId, channelId }, webhookId, event.contactKey, eventId);
  await enqueueEvent({ kind: 'lane', workspaceId, channelId, webhookId, contactKey: event.contactKey });
  return { webhookId, eventId, status: 'pending' };
}

/** events/list: the channel's events oldest first, each the JSON body webhooks deliver; the cursor resumes after the last one. */
export async function listEvents(channel: ChannelRef, input: { limit?: number; cursor?: string }): Promise<{ events: AnyEvent[]; nextCursor: string | null }> {
  const { workspaceId, channelId } = channel;
  const after = input.cursor === undefined ? undefined : await decodeCursor(input.cursor, channelId, 'events');
  const now = clock.now();
  const records = await listEventLog({ workspaceId, channelId }, after, input.limit ?? 50, now);
  const last = records[records.length - 1];
  // An erasure that has begun hides its contact's events at once, before it (or the deliverer) deletes them.
  const erased = new Set((await erasedEntries(records.map((event) => ({ channel, event })))).map(({ event }) => event));
  // At the head the answer is empty and nextCursor null: ask again later with the same cursor for what came since.
  // The body as delivered, byte for byte (the deliverer wrote it from the same event, shared/domain/event-builders.ts),
  // except a message's content past its retention period.
  return {
    events: records.filter((record) => !erased.has(record)).map((record) => eventWithVisibleContent(JSON.parse(record.body) as AnyEvent, now)),
    nextCursor: last ? await encodeCursor(channelId, 'events', last.id) : null,
  };
}

/** What webhooks/delete answers. */
export const DeletedWebhook = component(
  'DeletedWebhook',
  v.strictObject({
    id: described(v.string(), 'The deleted subscription', 'wh_01jhx3k8m0'),
    deleted: described(v.literal(true), 'Always true: nothing more is delivered to it and its delivery log is gone', true),
  }),
);

/**
 * webhooks/delete: the subscription leaves the channel's set (so the deliverer sends it
 * nothing more and it no longer counts toward the ten), then its delivery log and lanes
 * go. Unknown, already deleted, or another channel's → the same 404.
 */
export async function deleteWebhook(channel: ChannelRef, webhookId: string): Promise<v.InferOutput<typeof DeletedWebhook>> {
  if (!(await removeSubscription(channel, webhookId))) throw new NotFoundError('No webhook with that id in this channel.', { parameter: 'webhookId' });
  await deleteSubscriptionRecords(channel, webhookId);
  return { id: webhookId, deleted: true };
}
