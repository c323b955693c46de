import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { keyCreate, keyRevoke } from '../../scripts/admin/commands';
import { generateApiKey, hashApiKey } from '../../shared/auth/api-keys';
import { authorize, clearKeyCache, KEY_CACHE_MS } from '../../shared/auth/authorize';
import { clock } from '../../shared/clock';
import { KEY_IN_URL_MESSAGE } from '../../shared/errors';
import { SUPPORT_FUNCTIONS, tableAccessOf } from '../../shared/routes';
import { callApi } from '../support/api';
import { loadEndpoints } from '../support/endpoints';
import { injectFaults, serviceError } from '../support/faults';
import { findLeaks, recordFigures, unmaskedPhones } from '../support/log-audit';
import { scanRaw } from '../support/table';
import { createTeamKey, createTenant } from '../support/tenants';
import { isolateChatNetwork, liftRateLimits, Tally } from './helpers';
import { stdoutLinesDuring } from '../support/log-capture';

/**
 * Keys and secrets: keys exist only as hashes, never travel in URLs or bodies,
 * fail alike whatever is wrong with them, stop working within the documented cache
 * time, and neither keys nor phone numbers reach a log line. (The log audit after
 * the whole run — test/support/log-audit.ts — searches every line the suite logged.)
 */

const restoreLimits = liftRateLimits();
isolateChatNetwork();
const endpoints = await loadEndpoints();
const tally = new Tally();
const figures: Record<string, unknown> = {};

afterEach(() => {
  clock.reset();
  clearKeyCache();
});

afterAll(() => {
  recordFigures('keys-and-secrets', { ...figures, requestsSent: tally.get('requests') });
  restoreLimits();
});

describe('keys at rest', () => {
  it('stores keys only as SHA-256 hashes: no item of the table holds a key', async () => {
    // Prepare
    const tenant = await createTenant(1);
    const team = await createTeamKey(tenant, tenant.channelIds);
    // Act
    const items = await scanRaw();
    const text = JSON.stringify(items);
    // Assess
    expect(text).not.toMatch(/wsk_[A-Za-z0-9_-]{20}/);
    expect(text).toContain(hashApiKey(tenant.adminKey));
    expect(text).toContain(hashApiKey(team.apiKey));
    figures.itemsScannedForKeys = items.length;
  });
});

describe('keys in the query string or body', () => {
  const NAMES = ['apiKey', 'APIKEY', 'api_key', 'Api_Key', 'x-api-key', 'key', 'access_token'];
  // One tenant for every endpoint: each request is refused (the authorizer's 401, or the parameters' before any handler
  // work), so what one leaves behind is its rate-limit count alone, and the limits are lifted.
  let key: string;
  beforeAll(async () => {
    key = (await createTenant(1)).adminKey;
  });

  it.each(endpoints.map((endpoint) => [endpoint.path, endpoint] as const))(
    '%s refuses a key in the query string, the JSON body or a form body with 401, beside a valid header',
    async (_path, endpoint) => {
      // Act
      const answers = [];
      for (const name of NAMES) {
        answers.push(await callApi(endpoint.handler, { apiKey: key, method: 'GET', query: { ...endpoint.base, [name]: key } }));
        answers.push(await callApi(endpoint.handler, { apiKey: key, method: 'POST', params: { ...endpoint.base, [name]: key } }));
        answers.push(
          await callApi(endpoint.handler, {
            apiKey: key,
            body: new URLSearchParams({ ...endpoint.base, [name]: key }).toString(),
            headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          }),
        );
      }
      tally.add('requests', answers.length);
      // Assess
      for (const answer of answers) {
        expect(answer.status).toBe(401);
        expect(answer.body).toMatchObject({ success: false, error: 'unauthorized' });
        expect(JSON.stringify(answer)).not.toContain(key);
      }
      // Each name's first answer had the key in the URL: exposed, so the caller is told to rotate it.
      expect(answers.map((answer) => answer.body.message === KEY_IN_URL_MESSAGE)).toEqual(NAMES.flatMap(() => [true, false, false]));
      figures.keyPlacementsRefused = (Number(figures.keyPlacementsRefused) || 0) + answers.length;
    },
  );
});

describe('unknown, revoked and expired keys', () => {
  it('are the same refusal, and a revocation takes effect within the 10-second cache time and an expiry at once (injected clock)', async () => {
    // Prepare
    const tenant = await createTenant(1);
    const list = endpoints.find((endpoint) => endpoint.path === 'channels/list')!;
    const start = Date.UTC(2026, 0, 1, 12, 0, 0);
    clock.freeze(start);
    const revoked = await keyCreate({ workspaceId: tenant.workspaceId, role: 'admin' });
    const expiring = await keyCreate({ workspaceId: tenant.workspaceId, role: 'admin', expiresAt: new Date(start + 2_000).toISOString() });
    const neverUsedRevoked = await keyCreate({ workspaceId: tenant.workspaceId, role: 'admin' });
    await keyRevoke(neverUsedRevoked.keyId);
    const expired = await keyCreate({ workspaceId: tenant.workspaceId, role: 'admin', expiresAt: new Date(start - 1).toISOString() });
    const status = async (apiKey: string) => (await callApi(list.handler, { apiKey })).status;
    const refusal = (apiKey: string) =>
      authorize({ type: 'REQUEST', methodArn: 'arn:aws:execute-api:local:1:api/test/POST/x', headers: { 'X-API-Key': apiKey } } as never).then(
        () => 'allowed',
        (error: Error) => error.message,
      );
    // Act
    const first = [await status(revoked.apiKey), await status(expiring.apiKey)];
    await keyRevoke(revoked.keyId);
    clock.freeze(start + KEY_CACHE_MS - 1);
    const cached = [await status(revoked.apiKey), await status(expiring.apiKey)];
    clock.freeze(start + KEY_CACHE_MS);
    const after = [await status(revoked.apiKey), await status(expiring.apiKey)];
    const refusals = [
      await refusal(generateApiKey()),
      await refusal(neverUsedRevoked.apiKey),
      await refusal(expired.apiKey),
      await refusal(revoked.apiKey),
      await refusal('wsk_short'),
      await refusal(''),
    ];
    // Assess
    expect(first).toEqual([200, 200]);
    expect(cached).toEqual([200, 401]); // revocation takes up to the cache time; a known expiry is never outlived
    expect(after).toEqual([401, 401]);
    expect(new Set(refusals)).toEqual(new Set(['Unauthorized']));
    expect(KEY_CACHE_MS).toBeLessThanOrEqual(10_000);
    figures.revocationEffectiveWithinMs = KEY_CACHE_MS;
  });
});

describe('response headers of the public functions', () => {
  const publicWriters = Object.values(SUPPORT_FUNCTIONS).filter((fn) => fn.publicPath && tableAccessOf(fn) === 'write');

  it.each(publicWriters.map((fn) => [fn.publicPath!, fn] as const))('%s answers no-store and nosniff, refusals included', async (_path, fn) => {
    // Prepare: no secret configured (fails closed) and no signature
    const { handler } = (await import(/* @vite-ignore */ pathToFileURL(resolve(import.meta.dirname, '..', '..', fn.entry)).href)) as {
      handler: (event: unknown) => Promise<{ statusCode: number; headers?: Record<string, string> }>;
    };
    const event = (httpMethod: string) => ({
      httpMethod,
      path: fn.publicPath,
      headers: {},
      queryStringParameters: { 'hub.mode': 'subscribe' },
      body: '{}',
      isBase64Encoded: false,
      requestContext: { requestId: 'r' },
    });
    // Act
    const answers = [];
    for (const method of fn.publicMethods ?? ['POST']) answers.push(await handler(event(method)));
    // Assess
    for (const answer of answers) {
      expect(answer.statusCode).toBeGreaterThanOrEqual(400);
      expect(answer.headers?.['Cache-Control']).toBe('no-store');
      expect(answer.headers?.['X-Content-Type-Options']).toBe('nosniff');
    }
  });
});

describe('logs', () => {
  it('never carry a key or a phone number in full, for requests that carry phone numbers, succeed, fail and crash', async () => {
    // Prepare
    const tenant = await createTenant(1);
    const byPath = (path: string) => endpoints.find((endpoint) => endpoint.path === path);
    const phones = ['+1 415 555 0177', '+442079460123', '0049 151 12345699'];
    // Act
    const lines = await stdoutLinesDuring(async () => {
      for (const phone of phones) {
        await callApi(byPath('contacts/manage')!.handler, {
          apiKey: tenant.adminKey,
          params: { phoneNumber: phone, name: 'Log Person', email: 'log.person@example.com' },
        });
        await callApi(byPath('contacts/manage')!.handler, {
          apiKey: tenant.adminKey,
          method: 'GET',
          params: { phoneNumber: phone, customFieldsData: 'unknown:1' },
        });
        await callApi(byPath('contacts/list')!.handler, { apiKey: tenant.adminKey, params: { search: phone } });
        for (const endpoint of endpoints) {
          for (const name of Object.keys(endpoint.params).filter((n) => ['to', 'phoneNumber'].includes(n))) {
            await callApi(endpoint.handler, { apiKey: tenant.adminKey, params: { ...endpoint.base, [name]: phone } });
          }
        }
        const fault = injectFaults((command) => (command === 'PutItemCommand' ? serviceError('InternalFailure', 500) : undefined));
        await callApi(byPath('contacts/manage')!.handler, { apiKey: tenant.adminKey, params: { phoneNumber: phone.replace(/\d$/, '8') } });
        fault.remove();
      }
    });
    tally.add('requests', phones.length * 4);
    // Assess
    const text = lines.join('\n');
    expect(lines.filter((line) => line.includes('"message":"request"')).length).toBeGreaterThanOrEqual(phones.length * 4);
    expect(text).toContain('"status":500');
    expect(lines.flatMap(unmaskedPhones)).toEqual([]);
    for (const phone of phones) expect(text).not.toContain(phone.replace(/\D/g, '').replace(/^00/, ''));
    expect(text).not.toContain(tenant.adminKey);
    expect(text).not.toContain('log.person@example.com');
    figures.logLinesChecked = lines.length;
  });

  it('the log audit finds keys, tokens, secrets and unmasked phone numbers, and nothing in masked or id-only lines', () => {
    const key = generateApiKey();
    const lines = [
      `{"message":"request","apiKey":"${key}"}`,
      '{"message":"graph call","token":"EAAdemoabcdefghijklmnopqrstuvwxyz0123"}',
      'Authorization: Bearer abcdefghijklmnop1234',
      '{"secret":"chat-test-app-secret"}',
      '{"from":"14155550100"}',
      'inbound from +44 20 7946 0958 recorded',
      '{"from":"14*******00","requestId":"24a573da-6b62-4979-af96-3755f0e370b5","timestamp":"2026-11-25T22:47:43.010Z","phoneNumberId":"100000000000001","latencyMs":12}',
      '{"workspaceId":"ws_6y6ky7erebjqjv7c","channelId":"ch_1234567890123456","at":1764110863000}',
    ];
    const leaks = findLeaks(lines.join('\n'), 'synthetic.log', ['chat-test-app-secret']);
    expect(leaks.map((leak) => `${leak.line}:${leak.kind}`)).toEqual([
      '1:api key',
      '2:access token',
      '3:bearer credential',
      '4:secret',
      '5:phone number',
      '6:phone number',
    ]);
  });
});
