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

describe("the local gateway with a usage plan's own throttle and AWS's request-size limits", () => {
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  const invoked: string[] = [];

  beforeAll(async () => {
    const handler =
      (name: string): ProxyHandler =>
      async () => {
        invoked.push(name);
        return { statusCode: 200, body: '{"success":true}' };
      };
    const roomy = { burstLimit: 100, rateLimit: 100 };
    gateway = await startGateway({
      port: 0,
      routes: [
        { path: '/api/a', methods: ['GET'], handler: handler('a'), authorized: true, throttles: { GET: roomy } },
        { path: '/api/b', methods: ['GET'], handler: handler('b'), authorized: true, throttles: { GET: roomy } },
        { path: '/api/c', methods: ['POST'], handler: handler('c'), authorized: false },
      ],
      authorizer: async (event) => {
        const key = Object.entries(event.headers ?? {}).find(([name]) => name.toLowerCase() === 'x-api-key')?.[1];
        return {
          principalId: `user-${key}`,
          policyDocument: { Version: '2012-10-17', Statement: [] },
          usageIdentifierKey: `usage-${key}`,
        } as APIGatewayAuthorizerResult;
      },
      planThrottle: { burstLimit: 3, rateLimit: 0.001 },
      responses: {
        THROTTLED: envelope('rate_limited', 429, { 'Retry-After': '60' }),
        REQUEST_TOO_LARGE: envelope('payload_too_large', 413),
        DEFAULT_4XX: envelope('invalid_request'),
      },
    });
  });
  afterAll(async () => gateway?.close());

  it("refuses a key past the plan's bucket whatever methods it spreads over, each key its own bucket", async () => {
    // Act
    const call = (path: string, key: string) => fetch(`${gateway.url}${path}`, { headers: { 'X-API-Key': key } }).then((response) => response.status);
    const spread = [await call('/api/a', 'one'), await call('/api/b', 'one'), await call('/api/a', 'one'), await call('/api/b', 'one')];
    const other = await call('/api/b', 'two');
    // Assess
    expect(spread).toEqual([200, 200, 200, 429]);
    expect(other).toBe(200);
  });

  it("answers 413 in the envelope, without invoking the function, above Lambda's 6 MB invocation payload and above API Gateway's 10 MB", async () => {
    // Prepare
    const post = (megabytes: number) =>
      fetch(`${gateway.url}/api/c`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: `"${'x'.repeat(megabytes * 1024 * 1024)}"` });
    invoked.length = 0;
    // Act
    const answers = [];
    for (const megabytes of [5, 6.5, 9.5, 11]) {
      const response = await post(megabytes);
      answers.push([megabytes, response.status, ((await response.json()) as { error?: string }).error]);
    }
    // Assess
    expect(answers).toEqual([
      [5, 200, undefined],
      [6.5, 413, 'payload_too_large'],
      [9.5, 413, 'payload_too_large'],
      [11, 413, 'payload_too_large'],
    ]);
    expect(invoked).toEqual(['c']);
  });
});
