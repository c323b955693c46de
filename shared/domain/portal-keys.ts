import type * as v from 'valibot';
import type { PortalPrincipal } from '../auth/portal-principal';
import { usagePlanIdNamed } from '../auth/usage-plan-keys';
import { clock } from '../clock';
import { config } from '../config';
import { recordPortalAudit, type PortalAuditRecord } from '../data/portal-audit';
import { getApiKeyById, listUserKeys } from '../data/tenants';
import { InvalidInputError, NotFoundError } from '../errors';
import { newId } from '../ids';
import { logger } from '../observability/logger';
import { fileRequestLog, type LoggedRequest, type RequestLog } from '../observability/request-log';
import type { RateLimitClass } from '../routes';
import { issueApiKey, withdrawApiKey } from './api-keys';
import { portalApiUser } from './portal-user';
import type { PortalCreatedKey, PortalKey } from './portal-views';

/**
 * The developer portal's keys (docs/PORTAL.md): a signed-in user creates, lists, revokes
 * and rotates the keys of their own API user, and reads each key's usage and latest
 * requests. A key is found only among the caller's own: any other id, another
 * workspace's or another user's of the same workspace, is the same 404. Changes are
 * audited (who, which key, when); a secret is returned once, by create and rotate.
 */

const DAY_MS = 86_400_000;
/** How far back the usage, the request list and "last used" look (the request log's window). */
export const REQUEST_LOG_DAYS = 7;
export const LATEST_REQUESTS = 100;

/** A key as create and rotate answer it: the only answers holding its value (shared/domain/portal-views.ts). */
export type CreatedKey = v.InferOutput<typeof PortalCreatedKey>;

export type KeyStatus = 'active' | 'revoked' | 'expired';

/** A key as the keys list shows it: never the value. */
export type ListedKey = v.InferOutput<typeof PortalKey>;

export async function createPortalKey(principal: PortalPrincipal, input: { name: string; expiresAt?: string }): Promise<CreatedKey> {
  const expiresAt = futureTime(input.expiresAt);
  const created = await issueKeyFor(principal, input.name, expiresAt);
  await audit(principal, { action: 'key_created', keyId: created.keyId });
  return created;
}

export async function listPortalKeys(principal: PortalPrincipal): Promise<ListedKey[]> {
  const userKeys = await listUserKeys(principal.workspaceId, principal.apiUserId);
  const now = clock.now();
  const log = await requestLog();
  const lastUsed = await log.lastUsed(
    userKeys.map((key) => key.keyId),
    now - REQUEST_LOG_DAYS * DAY_MS,
  );
  return userKeys.map((key) => ({
    keyId: key.keyId,
    name: key.name ?? '',
    prefix: key.prefix,
    createdAt: key.createdAt,
    lastUsedAt: lastUsed[key.keyId] ?? null,
    expiresAt: key.expiresAt ?? null,
    status: key.revokedAt ? 'revoked' : key.expiresAt && Date.parse(key.expiresAt) <= now ? 'expired' : 'active',
  }));
}

export async function revokePortalKey(principal: PortalPrincipal, keyId: string): Promise<{ keyId: string; revoked: true }> {
  await ownKey(principal, keyId);
  await withdrawApiKey(keyId, await deploymentUsagePlan());
  await audit(principal, { action: 'key_revoked', keyId });
  return { keyId, revoked: true };
}

/** A new key for the same user with the old one's name (and no expiry), then the old one revoked: the caller swaps keys without a gap. */
export async function rotatePortalKey(principal: PortalPrincipal, keyId: string): Promise<CreatedKey & { replacedKeyId: string }> {
  const old = await ownKey(principal, keyId);
  if (old.revoked) throw new InvalidInputError(`Key ${keyId} is already revoked: create a new key instead.`, 'keyId', 'key_revoked');
  const created = await issueKeyFor(principal, old.name ?? '', undefined);
  await withdrawApiKey(keyId, await deploymentUsagePlan());
  await audit(principal, { action: 'key_rotated', keyId, replacementKeyId: created.keyId });
  return { ...created, replacedKeyId: keyId };
}

export interface UsageWindow {
  requests: number;
  /** Requests answered 429 (the per-minute limits of the rate classes). */
  throttled: number;
  byRateClass: Partial<Record<RateLimitClass, number>>;
}

export interface KeyUsage {
  keyId: string;
  last24Hours: UsageWindow;
  last7Days: UsageWindow;
  /** The 7 days, oldest first (UTC dates): what the page charts. */
  daily: Array<{ date: string; requests: number; throttled: number }>;
}

export async function keyUsage(principal: PortalPrincipal, keyId: string): Promise<KeyUsage> {
  await ownKey(principal, keyId);
  const now = clock.now();
  const weekStart = now - REQUEST_LOG_DAYS * DAY_MS;
  const counts = await (await requestLog()).counts(keyId, weekStart);
  const window = (since: number): UsageWindow => {
    const usage: UsageWindow = { requests: 0, throttled: 0, byRateClass: {} };
    for (const count of counts.filter((entry) => entry.hour + 3_600_000 > since)) {
      usage.requests += count.requests;
      if (count.status === 429) usage.throttled += count.requests;
      usage.byRateClass[count.rateClass] = (usage.byRateClass[count.rateClass] ?? 0) + count.requests;
    }
    return usage;
  };
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const daily = Array.from({ length: REQUEST_LOG_DAYS }, (_, i) => {
    const start = today - (REQUEST_LOG_DAYS - 1 - i) * DAY_MS;
    const ofDay = counts.filter((count) => count.hour >= start && count.hour < start + DAY_MS);
    return {
      date: new Date(start).toISOString().slice(0, 10),
      requests: ofDay.reduce((sum, count) => sum + count.requests, 0),
      throttled: ofDay.filter((count) => count.status === 429).reduce((sum, count) => sum + count.requests, 0),
    };
  });
  return { keyId, last24Hours: window(now - DAY_MS), last7Days: window(weekStart), daily };
}

/** The key's latest requests, newest first: time, endpoint, status, error code, latency (the log line holds no body and no phone number). */
export async function keyRequests(principal: PortalPrincipal, keyId: string): Promise<LoggedRequest[]> {
  await ownKey(principal, keyId);
  return (await requestLog()).latest(keyId, clock.now() - REQUEST_LOG_DAYS * DAY_MS, LATEST_REQUESTS);
}

/** The usage plan of this deployment (AWS), by its name; none locally. */
async function deploymentUsagePlan(): Promise<string | undefined> {
  const name = config.usagePlanName();
  return name ? usagePlanIdNamed(name) : undefined;
}

let chosenLog: RequestLog | undefined;

/** The request log of this deployment: CloudWatch Logs Insights when REQUEST_LOG_GROUPS is set, else the local file. */
async function requestLog(): Promise<RequestLog> {
  if (chosenLog) return chosenLog;
  const groups = config.requestLogGroups();
  chosenLog = groups ? (await import('../observability/request-log-insights')).insightsRequestLog(groups.split(',').filter(Boolean)) : fileRequestLog();
  return chosenLog;
}

/** The key if it is one of the caller's own, else 404 (whoever else's it is). */
async function ownKey(principal: PortalPrincipal, keyId: string) {
  const key = await getApiKeyById(keyId);
  if (!key || key.workspaceId !== principal.workspaceId || key.userId !== principal.apiUserId)
    throw new NotFoundError(`No key ${keyId} among your own.`, { parameter: 'keyId' });
  return key;
}

async function issueKeyFor(principal: PortalPrincipal, name: string, expiresAt: string | undefined): Promise<CreatedKey> {
  const user = await portalApiUser(principal);
  const issued = await issueApiKey({
    workspaceId: principal.workspaceId,
    userId: user.userId,
    role: user.role,
    name,
    expiresAt,
    usagePlanId: await deploymentUsagePlan(),
  });
  return { keyId: issued.keyId, apiKey: issued.apiKey, name, prefix: issued.prefix, createdAt: issued.createdAt, expiresAt: expiresAt ?? null };
}

/** An optional ISO 8601 time that must lie ahead; normalized to UTC. */
function futureTime(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const at = Date.parse(value);
  if (Number.isNaN(at)) throw new InvalidInputError('Invalid parameter expiresAt: must be an ISO 8601 date-time, e.g. 2027-01-31T00:00:00Z.', 'expiresAt');
  if (at <= clock.now()) throw new InvalidInputError('Invalid parameter expiresAt: must lie in the future.', 'expiresAt');
  return new Date(at).toISOString();
}

/** The audit record of a change, and its log line (who, which key, when; never the key). */
async function audit(principal: PortalPrincipal, change: Pick<PortalAuditRecord, 'action' | 'keyId' | 'replacementKeyId'>): Promise<void> {
  const record: PortalAuditRecord = { ...change, email: principal.email, userId: principal.apiUserId, at: clock.nowIso() };
  await recordPortalAudit(principal.workspaceId, newId('aud'), record);
  logger.info('portal audit', { workspaceId: principal.workspaceId, ...record });
}
