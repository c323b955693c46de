import * as v from 'valibot';
import { described } from '../schema/docs';
import { component, nullableTimestamp, timestamp } from '../schema/responses';
import { Redelivery, Webhook, WebhookDelivery } from './integrator-webhooks';

/**
 * What the developer portal's API answers (docs/PORTAL.md), field by field: the bare JSON
 * of each call (no envelope), as the OpenAPI document publishes it. Each portal function
 * file exports its `response` from these.
 */

export interface PortalResponse {
  body: v.GenericSchema;
  description: string;
  /** Error statuses beyond 400, 401, 403 and 429, which every portal call may answer. */
  errors?: readonly (404 | 409)[];
}

const keyId = described(v.string(), 'The key’s id', 'key_01jhx3k8m0');
const name = described(v.string(), 'The name given at creation', 'CRM sync');
const prefix = described(v.string(), 'The key’s first characters: enough to tell keys apart, never the key', 'wsk_Ab3x');
const expiresAt = nullableTimestamp('When the key stops working');

export const PortalCreatedKey = component(
  'PortalCreatedKey',
  v.strictObject({
    keyId,
    apiKey: described(v.string(), 'The key itself: shown this once, stored nowhere (only its hash)', 'wsk_Ab3x…'),
    name,
    prefix,
    createdAt: timestamp('When it was made'),
    expiresAt,
  }),
);

export const PortalRotatedKey = component(
  'PortalRotatedKey',
  v.strictObject({ ...PortalCreatedKey.entries, replacedKeyId: described(v.string(), 'The key revoked by the rotation', 'key_01jhx3k8m0') }),
);

export const PortalKey = component(
  'PortalKey',
  v.strictObject({
    keyId,
    name,
    prefix,
    createdAt: timestamp('When it was made'),
    lastUsedAt: nullableTimestamp('Its latest request in the last 7 days (from the request log)'),
    expiresAt,
    status: described(v.picklist(['active', 'revoked', 'expired']), 'Whether it works', 'active'),
  }),
);

export const PortalRevokedKey = component('PortalRevokedKey', v.strictObject({ keyId, revoked: described(v.literal(true), 'Revoked', true) }));

const count = (description: string, example: number) => described(v.pipe(v.number(), v.integer()), description, example);
const UsageWindow = component(
  'PortalUsageWindow',
  v.strictObject({
    requests: count('Requests the API answered for the key', 42),
    throttled: count('Of them answered 429 (the per-minute limits)', 0),
    byRateClass: described(v.record(v.string(), v.number()), 'Requests by rate class', { api_read: 40, api_write: 2 }),
  }),
);

export const PortalKeyUsage = component(
  'PortalKeyUsage',
  v.strictObject({
    keyId,
    last24Hours: UsageWindow,
    last7Days: UsageWindow,
    daily: described(v.array(v.strictObject({ date: v.string(), requests: v.number(), throttled: v.number() })), 'The 7 days, oldest first (UTC dates)', [
      { date: '2025-01-31', requests: 42, throttled: 0 },
    ]),
  }),
);

export const PortalRequest = component(
  'PortalRequest',
  v.strictObject({
    at: timestamp('When it was answered'),
    endpoint: described(v.string(), 'The endpoint, below the API base', 'contacts/list'),
    method: described(v.string(), 'GET or POST', 'GET'),
    status: count('The HTTP status answered', 200),
    error: v.optional(described(v.string(), 'The error code of a refusal', 'not_found')),
    latencyMs: count('Time in the function, in milliseconds', 38),
    rateClass: described(v.string(), 'The rate class it counted against', 'api_read'),
  }),
);

export const PortalDeliveries = component(
  'PortalDeliveries',
  v.strictObject({
    deliveries: v.array(WebhookDelivery),
    nextCursor: described(v.nullable(v.string()), 'Opaque cursor of the next page (pass it as `cursor`), or null', null),
  }),
);

export { Redelivery, Webhook };
