import type { APIGatewayAuthorizerResult } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayResponseDescription } from '../../scripts/local/description';
import { startGateway, type ProxyHandler } from '../../scripts/local/gateway';

/** Gateway responses as the template declares them (a subset, same shape). */
const envelope = (error: string, statusCode?: number, extra: Record<string, string> = {}): GatewayResponseDescription => ({
  statusCode,
  headers: { 'Content-Type': 'application/json', 'X-Request-Id': 'context.requestId', ...extra },
  body: JSON.stringify({ success: false, error }),
});

describe('the local gateway with template settings (identity sources, cache, throttles, gateway responses)', () => {
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  let authorizerCalls = 0;

  beforeAll(async () => {
    const ok: ProxyHandler = async () => ({ statusCode: 200, body: '{"success":true}' });
    const failing: ProxyHandler = async () => {
      throw new Error('boom');
    };
    gateway = await startGateway({
      port: 0,
      routes: [
        { path: '/api/ok', methods: ['GET'], handler: ok, authorized: true, throttles: { GET: { burstLimit: 2, rateLimit: 0.001 } } },
        { path: '/api/fails', methods: ['GET'], handler: failing, authorized: false },
      ],
      authorizer: async (event) => {
        authorizerCalls += 1;
        const key = Object.entries(event.headers ?? {}).find(([name]) => name.toLowerCase() === 'x-api-key')?.[1];
        if (key !== 'good') throw new Error('Unauthorized');
        return { principalId: 'user', policyDocument: { Version: '2012-10-17', Statement: [] }, usageIdentifierKey: 'key-1' } as APIGatewayAuthorizerResult;
      },
      authorizerSettings: { identitySources: ['method.request.header.X-API-Key'], cacheTtlSeconds: 300 },
      responses: {
        UNAUTHORIZED: envelope('unauthorized', 401),
        MISSING_AUTHENTICATION_TOKEN: envelope('not_found', 404),
        THROTTLED: envelope('rate_limited', 429, { 'Retry-After': '60' }),
        DEFAULT_5XX: envelope('internal_error'),
      },
    });
  });
  afterAll(async () => gateway?.close());

  it('refuses a request lacking an identity source without running the authorizer', async () => {
    // Prepare
    const before = authorizerCalls;
    // Act
    const response = await fetch(`${gateway.url}/api/ok`);
    // Assess
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ success: false, error: 'unauthorized' });
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(authorizerCalls).toBe(before);
  });

  it('caches the authorizer result by identity source, and throttles per key with the THROTTLED response', async () => {
    // Prepare
    const before = authorizerCalls;
    // Act
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 3; i++) {
      last = await fetch(`${gateway.url}/api/ok`, { headers: { 'X-API-Key': 'good' } });
      statuses.push(last.status);
    }
    // Assess
    expect(statuses).toEqual([200, 200, 429]);
    expect(last!.headers.get('retry-after')).toBe('60');
    expect(authorizerCalls - before).toBe(1);
  });

  it('answers an unknown path and a failed function with the declared responses (404; 502 as API Gateway does)', async () => {
    // Act
    const missing = await fetch(`${gateway.url}/api/nothing`);
    const failed = await fetch(`${gateway.url}/api/fails`);
    // Assess
    expect([missing.status, await missing.json()]).toEqual([404, { success: false, error: 'not_found' }]);
    expect([failed.status, await failed.json()]).toEqual([502, { success: false, error: 'internal_error' }]);
  });
});
