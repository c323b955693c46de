import { afterEach, describe, expect, it } from 'vitest';
import { keyCreate, keyRevoke } from '../../scripts/admin/commands';
import { generateApiKey, hashApiKey } from '../../shared/auth/api-keys';
import { authorize, clearKeyCache, KEY_CACHE_MS, KEY_IN_URL_PRINCIPAL } from '../../shared/auth/authorize';
import { clock } from '../../shared/clock';
import { getApiKeyById } from '../../shared/data/tenants';
import { createTeamKey, createTenant } from '../support/tenants';

const METHOD_ARN = 'arn:aws:execute-api:eu-west-1:123456789012:abc123/prod/POST/api/workspace/v1/contacts/list';
const event = (headers: Record<string, string>, query: Record<string, string> | null = null) =>
  ({ type: 'REQUEST', methodArn: METHOD_ARN, headers, queryStringParameters: query }) as never;

/** When the cache tests freeze the clock. */
const START = Date.UTC(2026, 0, 1, 12, 0, 0);
/** Whether the authorizer lets the key through now. */
const outcome = (apiKey: string) =>
  authorize(event({ 'x-api-key': apiKey })).then(
    () => 'allowed',
    () => 'refused',
  );

describe('the API key authorizer', () => {
  afterEach(() => {
    clock.reset();
    clearKeyCache();
  });

  it('resolves X-API-Key and Bearer to the same principal, allowing the whole API', async () => {
    // Prepare
    const tenant = await createTenant(2);
    // Act
    const viaHeader = await authorize(event({ 'x-api-key': tenant.adminKey }));
    const viaBearer = await authorize(event({ Authorization: `Bearer ${tenant.adminKey}` }));
    // Assess
    expect(viaHeader.context).toEqual(viaBearer.context);
    expect(viaHeader.context).toMatchObject({ workspaceId: tenant.workspaceId, userId: tenant.adminUserId, role: 'admin' });
    expect(String(viaHeader.context?.channelIds).split(',').sort()).toEqual([...tenant.channelIds].sort());
    expect(viaHeader.policyDocument.Statement[0]).toMatchObject({ Effect: 'Allow', Resource: 'arn:aws:execute-api:eu-west-1:123456789012:abc123/prod/*' });
  });

  it('refuses unknown, malformed, missing, revoked and expired keys with the same error', async () => {
    // Prepare
    const tenant = await createTenant(1);
    const expired = await keyCreate({ workspaceId: tenant.workspaceId, role: 'admin', expiresAt: new Date(clock.now() - 1000).toISOString() });
    const revoked = await keyCreate({ workspaceId: tenant.workspaceId, role: 'admin' });
    await keyRevoke(revoked.keyId);
    const attempts: Record<string, string>[] = [
      { 'x-api-key': generateApiKey() },
      { 'x-api-key': 'not-a-key' },
      {},
      { authorization: `Basic ${tenant.adminKey}` },
      { 'x-api-key': expired.apiKey },
      { 'x-api-key': revoked.apiKey },
    ];
    // Act
    const outcomes = await Promise.all(
      attempts.map((headers) =>
        authorize(event(headers)).then(
          () => 'allowed',
          (error: Error) => error.message,
        ),
      ),
    );
    // Assess
    expect(outcomes).toEqual(Array(attempts.length).fill('Unauthorized'));
  });

  it('denies a key in the query string, under a key name or any name, even with a valid header (the 401 that says to rotate it)', async () => {
    // Prepare
    const tenant = await createTenant(1);
    const queries: Record<string, string>[] = [
      { apiKey: tenant.adminKey },
      { KEY: 'typo' },
      { 'X-API-Key': tenant.adminKey },
      { access_token: tenant.adminKey },
      { search: 'x', token: generateApiKey() },
    ];
    // Act
    const results = await Promise.all(queries.map((query) => authorize(event({ 'x-api-key': tenant.adminKey }, query))));
    const withoutHeader = await authorize(event({}, { api_key: tenant.adminKey }));
    // Assess
    for (const result of [...results, withoutHeader]) {
      expect(result.principalId).toBe(KEY_IN_URL_PRINCIPAL);
      expect(result.policyDocument.Statement).toEqual([expect.objectContaining({ Effect: 'Deny' })]);
      expect(result.context).toBeUndefined();
    }
  });

  it('allows a query whose values merely resemble a key', async () => {
    // Prepare
    const tenant = await createTenant(1);
    // Act
    const result = await authorize(event({ 'x-api-key': tenant.adminKey }, { search: 'wsk_short', keyword: 'apiKey' }));
    // Assess
    expect(result.policyDocument.Statement[0]).toMatchObject({ Effect: 'Allow' });
  });

  it('stops accepting a revoked key within the 10-second cache time', async () => {
    // Prepare
    const tenant = await createTenant(1);
    clock.freeze(START);
    const key = await keyCreate({ workspaceId: tenant.workspaceId, role: 'admin' });
    await authorize(event({ 'x-api-key': key.apiKey }));
    // Act
    await keyRevoke(key.keyId);
    clock.freeze(START + KEY_CACHE_MS - 1);
    const stillCached = await outcome(key.apiKey);
    clock.freeze(START + KEY_CACHE_MS);
    const afterCache = await outcome(key.apiKey);
    // Assess
    expect(KEY_CACHE_MS).toBeLessThanOrEqual(10_000);
    expect(stillCached).toBe('allowed');
    expect(afterCache).toBe('refused');
  });

  it('refuses a cached key from the moment it expires, not up to 10 seconds later', async () => {
    // Prepare
    const tenant = await createTenant(1);
    clock.freeze(START);
    const key = await keyCreate({ workspaceId: tenant.workspaceId, role: 'admin', expiresAt: new Date(START + 2_000).toISOString() });
    // Act
    const fresh = await outcome(key.apiKey);
    clock.freeze(START + 1_999);
    const beforeExpiry = await outcome(key.apiKey);
    clock.freeze(START + 2_000);
    const atExpiry = await outcome(key.apiKey);
    // Assess
    expect(fresh).toBe('allowed');
    expect(beforeExpiry).toBe('allowed');
    expect(atExpiry).toBe('refused');
  });

  it('sees a newly assigned channel within the cache time', async () => {
    // Prepare
    const tenant = await createTenant(2);
    clock.freeze(START);
    const team = await createTeamKey(tenant, [tenant.channelIds[0]]);
    const before = await authorize(event({ 'x-api-key': team.apiKey }));
    // Act
    const { channelAssign } = await import('../../scripts/admin/commands');
    await channelAssign(tenant.channelIds[1], team.userId);
    clock.freeze(START + KEY_CACHE_MS);
    const after = await authorize(event({ 'x-api-key': team.apiKey }));
    // Assess
    expect(before.context?.channelIds).toBe(tenant.channelIds[0]);
    expect(String(after.context?.channelIds).split(',').sort()).toEqual([...tenant.channelIds].sort());
  });

  it('stores only the SHA-256 hash of a key', async () => {
    // Prepare
    const tenant = await createTenant(1);
    // Act
    const key = await keyCreate({ workspaceId: tenant.workspaceId, role: 'team' });
    const stored = await getApiKeyById(key.keyId);
    // Assess
    expect(key.apiKey).toMatch(/^wsk_[A-Za-z0-9_-]{43}$/);
    expect(stored?.keyHash).toBe(hashApiKey(key.apiKey));
    expect(JSON.stringify(stored)).not.toContain(key.apiKey);
  });
});
