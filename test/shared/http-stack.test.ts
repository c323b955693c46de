import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { handler as listChannels } from '../../functions/channels-list';
import { handler as listContacts } from '../../functions/contacts-list';
import { handler as manageContact } from '../../functions/contacts-manage';
import { handler as listLabels } from '../../functions/labels-list';
import { handler as manageLabel } from '../../functions/labels-manage';
import { callApi } from '../support/api';
import { injectFaults, serviceError } from '../support/faults';
import { createTeamKey, createTenant } from '../support/tenants';

describe('the shared middleware stack', () => {
  it('treats GET query parameters and POST bodies alike, the body winning on a clash', async () => {
    // Prepare
    const tenant = await createTenant(1);
    // Act
    const viaGet = await callApi(manageLabel, { apiKey: tenant.adminKey, method: 'GET', params: { name: 'g', displayOrder: '4' } });
    const viaBoth = await callApi(manageLabel, { apiKey: tenant.adminKey, method: 'POST', query: { name: 'q', displayOrder: '1' }, params: { name: 'b' } });
    const listed = await callApi(listLabels, { apiKey: tenant.adminKey });
    // Assess
    expect(viaGet.body.data).toMatchObject({ name: 'g', displayOrder: 4 });
    expect(viaBoth.body.data).toMatchObject({ name: 'b', displayOrder: 1 });
    expect(listed.body.data.map((l: { name: string }) => l.name)).toEqual(['b', 'g']);
  });

  it('parses form bodies and accepts an empty POST without Content-Type', async () => {
    // Prepare
    const tenant = await createTenant(1);
    // Act
    const form = await callApi(manageLabel, {
      apiKey: tenant.adminKey,
      body: 'name=formed&color=%23ABCDEF',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    const empty = await callApi(listChannels, { apiKey: tenant.adminKey, body: '' });
    const curlJson = await callApi(manageLabel, {
      apiKey: tenant.adminKey,
      body: '{"name":"curled"}',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    // Assess
    expect(form.body.data).toMatchObject({ name: 'formed', color: '#ABCDEF' });
    expect(curlJson.body.data).toMatchObject({ name: 'curled' });
    expect(empty.status).toBe(200);
  });

  it.each([
    ['{"name": "x",', 'application/json', 'invalid_json'],
    ['[1,2]', 'application/json', 'invalid_json'],
    ['"text"', undefined, 'invalid_json'],
    ['name=x', 'text/plain', 'unsupported_content_type'],
    ['{"name":"x"}', 'application/xml', 'unsupported_content_type'],
    [JSON.stringify({ name: 'x', description: 'y'.repeat(70_000) }), 'application/json', 'payload_too_large'],
  ])('answers a 400 envelope for body %#', async (body, contentType, error) => {
    // Prepare
    const tenant = await createTenant(1);
    // Act
    const response = await callApi(manageLabel, { apiKey: tenant.adminKey, body, headers: contentType ? { 'Content-Type': contentType } : {} });
    const listed = await callApi(listLabels, { apiKey: tenant.adminKey });
    // Assess
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ success: false, error });
    expect(response.body.message).toEqual(expect.any(String));
    expect(listed.body.data).toEqual([]);
  });

  it('names where malformed JSON breaks: position, line and column', async () => {
    // Prepare
    const tenant = await createTenant(1);
    // Act
    const response = await callApi(manageLabel, {
      apiKey: tenant.adminKey,
      body: '{"name": "x",\n "color": #FF8800"}',
      headers: { 'Content-Type': 'application/json' },
    });
    // Assess
    expect(response.body).toMatchObject({ error: 'invalid_json', details: { parameter: 'body', position: 24, line: 2, column: 11 } });
    expect(response.body.message).toMatch(/^The request body is not valid JSON at position 24 \(line 2, column 11\): .+\.$/);
  });

  it('refuses a key in the body or the query string with 401, even beside a valid header', async () => {
    // Prepare
    const tenant = await createTenant(1);
    // Act
    const inBody = await callApi(listChannels, { apiKey: tenant.adminKey, params: { apiKey: tenant.adminKey } });
    const inQuery = await callApi(listChannels, { apiKey: tenant.adminKey, method: 'GET', query: { apiKey: tenant.adminKey } });
    // Assess
    expect(inBody.status).toBe(401);
    expect(inBody.body.error).toBe('unauthorized');
    expect(inBody.body.message).toContain('X-API-Key');
    expect(inQuery.status).toBe(401);
  });

  it('accepts Authorization: Bearer and sets the standard headers on every response', async () => {
    // Prepare
    const tenant = await createTenant(1);
    // Act
    const ok = await callApi(listChannels, { headers: { Authorization: `Bearer ${tenant.adminKey}` } });
    const bad = await callApi(manageLabel, { apiKey: tenant.adminKey, params: {} });
    // Assess
    for (const response of [ok, bad]) {
      expect(response.headers['X-Request-Id']).toMatch(/[0-9a-f-]{36}/);
      expect(response.headers['Cache-Control']).toBe('no-store');
      expect(response.headers['X-Content-Type-Options']).toBe('nosniff');
      expect(response.headers['RateLimit-Policy']).toMatch(/^"api_(read|write)";q=\d+;w=60$/);
    }
    expect(ok.status).toBe(200);
    expect(bad.status).toBe(400);
  });

  it('refuses a parameter the endpoint does not define, naming it and the closest defined one, and writes nothing', async () => {
    // Prepare
    const tenant = await createTenant(1);
    // Act
    const viaPost = await callApi(manageContact, { apiKey: tenant.adminKey, params: { phoneNumber: '+14155550123', labels: ['VIP'] } });
    const viaGet = await callApi(listContacts, { apiKey: tenant.adminKey, method: 'GET', query: { serach: 'bo' } });
    const farOff = await callApi(manageLabel, { apiKey: tenant.adminKey, params: { name: 'x', zzzzzz: '1' } });
    const listed = await callApi(listContacts, { apiKey: tenant.adminKey });
    const labels = await callApi(listLabels, { apiKey: tenant.adminKey });
    // Assess
    expect(viaPost.status).toBe(400);
    expect(viaPost.body).toMatchObject({ success: false, error: 'unknown_parameter', details: { parameter: 'labels' } });
    expect(viaPost.body.message).toBe('Received unknown parameter: labels. Did you mean labelNames?');
    expect(viaGet.status).toBe(400);
    expect(viaGet.body).toMatchObject({ error: 'unknown_parameter', details: { parameter: 'serach' } });
    expect(viaGet.body.message).toContain('Did you mean search?');
    expect(farOff.body).toMatchObject({ error: 'unknown_parameter', details: { parameter: 'zzzzzz' } });
    expect(farOff.body.message).toBe('Received unknown parameter: zzzzzz.');
    expect(listed.body.data).toEqual([]);
    expect(labels.body.data).toEqual([]);
  });

  it('refuses prototype keys and forged ids as unknown parameters, polluting nothing', async () => {
    // Prepare
    const tenant = await createTenant(1);
    const forged = async (body: string) => callApi(manageLabel, { apiKey: tenant.adminKey, body, headers: { 'content-type': 'application/json' } });
    // Act
    const proto = await forged('{"name":"p","__proto__":{"polluted":true}}');
    const ctor = await forged('{"name":"p","constructor":{"x":1}}');
    const id = await forged('{"name":"p","workspaceId":"other","id":"lb_forged"}');
    const labels = await callApi(listLabels, { apiKey: tenant.adminKey });
    // Assess
    expect(proto.body).toMatchObject({ error: 'unknown_parameter', details: { parameter: '__proto__' } });
    expect(ctor.body).toMatchObject({ error: 'unknown_parameter', details: { parameter: 'constructor' } });
    expect(id.body).toMatchObject({ error: 'unknown_parameter', details: { parameter: 'workspaceId' } });
    expect(labels.body.data).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('channel selection', () => {
  it('needs channelId when the key has several channels, and says no channel was found', async () => {
    // Prepare
    const tenant = await createTenant(2);
    // Act
    const response = await callApi(listLabels, { apiKey: tenant.adminKey });
    const chosen = await callApi(listLabels, { apiKey: tenant.adminKey, params: { channelId: tenant.channelIds[1] } });
    // Assess
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/no channel was found for the user/i);
    expect(response.body.message).toContain('channelId');
    expect(chosen.status).toBe(200);
  });

  it('answers 400 for a key with no channel at all', async () => {
    // Prepare
    const tenant = await createTenant(1);
    const team = await createTeamKey(tenant, []);
    // Act
    const response = await callApi(listContacts, { apiKey: team.apiKey });
    // Assess
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/no channel was found for the user/i);
  });

  it('answers the same 403 for a channel of another workspace, an unassigned one and an unknown one', async () => {
    // Prepare
    const a = await createTenant(1);
    const b = await createTenant(2);
    const team = await createTeamKey(b, [b.channelIds[0]]);
    // Act
    const foreign = await callApi(listLabels, { apiKey: b.adminKey, params: { channelId: a.channelIds[0] } });
    const unassigned = await callApi(listLabels, { apiKey: team.apiKey, params: { channelId: b.channelIds[1] } });
    const unknown = await callApi(listLabels, { apiKey: b.adminKey, params: { channelId: 'ch_doesnotexist00' } });
    // Assess
    for (const response of [foreign, unassigned, unknown]) {
      expect(response.status).toBe(403);
      expect(response.body).toEqual({
        success: false,
        error: 'forbidden',
        message: 'This API key may not use that channel.',
        details: { parameter: 'channelId' },
      });
    }
  });
});

describe('faults', () => {
  let removeFaults: (() => void) | undefined;
  afterEach(() => removeFaults?.());

  it('retries a throttled DynamoDB call and then succeeds', async () => {
    // Prepare
    const tenant = await createTenant(1);
    let failures = 2;
    const faults = injectFaults((command) => (command === 'QueryCommand' && failures-- > 0 ? serviceError('ThrottlingException') : undefined));
    removeFaults = faults.remove;
    // Act
    const response = await callApi(listLabels, { apiKey: tenant.adminKey });
    // Assess
    expect(response.status).toBe(200);
    expect(faults.count()).toBe(2);
  });

  it('answers 503 when throttling outlasts the retries', async () => {
    // Prepare
    const tenant = await createTenant(1);
    const faults = injectFaults((command) => (command === 'QueryCommand' ? serviceError('ProvisionedThroughputExceededException') : undefined));
    removeFaults = faults.remove;
    // Act
    const throttled = await callApi(listLabels, { apiKey: tenant.adminKey });
    // Assess
    expect(throttled.status).toBe(503);
    expect(throttled.body.error).toBe('service_unavailable');
    expect(throttled.headers['Retry-After']).toBe('1');
    expect(faults.count()).toBe(4);
  });

  it('answers 500 without AWS detail when a write fails, and leaves no contact behind', async () => {
    // Prepare
    const tenant = await createTenant(1);
    const faults = injectFaults((command) => (command === 'PutItemCommand' ? serviceError('ValidationException') : undefined));
    removeFaults = faults.remove;
    // Act
    const broken = await callApi(manageContact, { apiKey: tenant.adminKey, params: { phoneNumber: '+14155550100', name: 'Lost' } });
    faults.remove();
    const listed = await callApi(listContacts, { apiKey: tenant.adminKey, params: { search: 'lost' } });
    // Assess
    expect(broken.status).toBe(500);
    expect(broken.body.error).toBe('internal_error');
    expect(JSON.stringify(broken.body)).not.toMatch(/arn:aws|ValidationException|secret/);
    expect(listed.body.pagination.total).toBe(0);
  });

  it('maps an unexpected client failure to a 500 that leaks nothing (aws-sdk-client-mock)', async () => {
    // Prepare
    const tenant = await createTenant(1);
    const auth = await callApi(listLabels, { apiKey: tenant.adminKey });
    expect(auth.status).toBe(200);
    const mock = mockClient(DynamoDBDocumentClient);
    mock.onAnyCommand().resolves({ Attributes: { n: 1 } });
    mock.on(QueryCommand).rejects(serviceError('InternalFailure', 500));
    try {
      // Act
      const response = await callApi(listLabels, { apiKey: tenant.adminKey });
      // Assess
      expect(response.status).toBe(500);
      expect(response.body).toEqual({ success: false, error: 'internal_error', message: expect.stringContaining('request id') });
      expect(JSON.stringify(response.body)).not.toMatch(/arn:aws|InternalFailure|secret/);
    } finally {
      mock.restore();
    }
  });
});
