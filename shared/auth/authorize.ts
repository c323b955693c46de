import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { TtlCache } from '../cache/ttl-cache';
import { clock } from '../clock';
import { config } from '../config';
import { getApiKeyByHash, getApiUser } from '../data/tenants';
import { headerValue } from '../schema/headers';
import { hashApiKey, hashesEqual, looksLikeApiKey } from './api-keys';
import { keyParameterInUrl } from './key-placement';
import { toAuthorizerContext, type Principal } from './principal';

/** Longest time a key lookup is reused, per container (KEY_CACHE_MS, at most 10 s): a revoked key stops working within this. */
export const KEY_CACHE_MS = config.keyCacheMs();

interface CachedPrincipal {
  principal: Principal;
  usageIdentifierKey?: string;
  /** When the key expires (ms since the epoch): a cached entry never outlives it. */
  expiresAtMs?: number;
}

/** Key hash → principal, per warm container; refusals are not kept (a key created a moment ago works at once). */
const cache = new TtlCache<string, CachedPrincipal | undefined>({
  maxAgeMs: KEY_CACHE_MS,
  maxEntries: 1_000,
  expiresAt: (entry) => entry?.expiresAtMs,
  keep: (entry) => entry !== undefined,
});

/** Thrown for every refusal; API Gateway turns exactly this message into its 401. */
export const UNAUTHORIZED = 'Unauthorized';

/** The API key from `X-API-Key` or `Authorization: Bearer`, if any. */
export function apiKeyFromHeaders(headers: Record<string, string | undefined> | null | undefined): string | undefined {
  const direct = headerValue(headers, 'x-api-key')?.trim();
  if (direct) return direct;
  const bearer = headerValue(headers, 'authorization')?.match(/^Bearer\s+(\S+)\s*$/i);
  return bearer?.[1];
}

/**
 * Resolves the caller's API key to its principal. Unknown, revoked and expired keys
 * are the same refusal, so the answer tells nothing about which keys exist.
 */
export async function resolvePrincipal(apiKey: string): Promise<CachedPrincipal | undefined> {
  if (!looksLikeApiKey(apiKey)) return undefined;
  const keyHash = hashApiKey(apiKey);
  return cache.get(keyHash, () => lookUpKey(keyHash));
}

/** The key's principal from the table, or undefined for an unknown, revoked or expired key. */
async function lookUpKey(keyHash: string): Promise<CachedPrincipal | undefined> {
  const now = clock.now();
  const record = await getApiKeyByHash(keyHash);
  if (!record || !hashesEqual(record.keyHash, keyHash) || record.revoked) return undefined;
  const expiresAtMs = record.expiresAt ? Date.parse(record.expiresAt) : undefined;
  if (expiresAtMs !== undefined && expiresAtMs <= now) return undefined;
  const user = await getApiUser(record.workspaceId, record.userId);
  if (!user) return undefined;
  const principal: Principal = { workspaceId: record.workspaceId, userId: record.userId, keyId: record.keyId, role: record.role, channelIds: user.channelIds };
  return { principal, usageIdentifierKey: user.usagePlanKeyValue, expiresAtMs };
}

/** The principal of a Deny for a key in the URL (API Gateway needs one; no key's owner is named). */
export const KEY_IN_URL_PRINCIPAL = 'key-in-url';

/**
 * The REQUEST authorizer: allows the whole API for a valid key, with the principal as
 * context. A key in the URL is denied, not refused, even beside a valid header: Deny is
 * API Gateway's ACCESS_DENIED, whose gateway response (infra/api.ts) is the 401 telling
 * the caller to rotate that key, while every other refusal stays one indistinct 401.
 */
export async function authorize(event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> {
  if (keyParameterInUrl(event.queryStringParameters) !== undefined) return policy(KEY_IN_URL_PRINCIPAL, 'Deny', event.methodArn);
  const apiKey = apiKeyFromHeaders(event.headers);
  const resolved = apiKey ? await resolvePrincipal(apiKey) : undefined;
  if (!resolved) throw new Error(UNAUTHORIZED);
  return {
    ...policy(resolved.principal.userId, 'Allow', event.methodArn),
    context: toAuthorizerContext(resolved.principal),
    ...(resolved.usageIdentifierKey ? { usageIdentifierKey: resolved.usageIdentifierKey } : {}),
  };
}

function policy(principalId: string, effect: 'Allow' | 'Deny', methodArn: string): APIGatewayAuthorizerResult {
  return {
    principalId,
    policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: effect, Resource: wholeApiArn(methodArn) }] },
  };
}

/** `arn:…:apiId/stage/GET/contacts/list` → `arn:…:apiId/stage/*` so one result serves every route. */
function wholeApiArn(methodArn: string): string {
  const [apiArn, stage] = methodArn.split('/');
  return `${apiArn}/${stage}/*`;
}

/** Test hook: forget cached lookups. */
export function clearKeyCache(): void {
  cache.clear();
}
