import { readFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPENAPI_FILE } from '../../scripts/openapi';
import { KEY_CACHE_MS } from '../../shared/auth/authorize';
import { API_BASE_PATH, METHOD_NOT_ALLOWED, UNKNOWN_PATH } from '../../shared/routes';
import { demoKey, SHORT_KEY_CACHE_MS, startStack, type RunningStack } from '../support/local-stack';

describe('the local stack end to end (npm start + operator CLI)', () => {
  let stack: RunningStack;
  let adminKey: string;
  let teamKey: string;

  beforeAll(async () => {
    stack = await startStack({ env: { KEY_CACHE_MS: String(SHORT_KEY_CACHE_MS) } });
    adminKey = demoKey(stack);
    teamKey = demoKey(stack, 'team');
  });
  afterAll(async () => stack?.stop());

  it('writes demo.json with URLs, two workspaces, keys and channels', () => {
    // Assess
    expect(stack.demo.baseUrl).toBe(`${stack.url}/api/workspace/v1`);
    expect(stack.demo.chatNetwork.appSecret).toMatch(/^[0-9a-f]{48}$/);
    expect(stack.demo.workspaces).toHaveLength(2);
    for (const workspace of stack.demo.workspaces) {
      expect(workspace.keys.length).toBeGreaterThan(0);
      for (const key of workspace.keys) expect(key.apiKey).toMatch(/^wsk_/);
      for (const channel of workspace.channels)
        expect(Object.keys(channel).sort()).toEqual(['accessToken', 'displayPhoneNumber', 'id', 'name', 'phoneNumberId', 'wabaId']);
    }
  });

  it('serves channels/list to admin and team keys over HTTP, GET and POST alike', async () => {
    // Act
    const admin = await stack.client(adminKey).GET('/channels/list');
    const team = await stack.call('channels/list', { headers: { Authorization: `Bearer ${teamKey}` } });
    // Assess
    expect(admin.response.status).toBe(200);
    expect(admin.data?.message).toBe('Found 2 channel(s)');
    expect(team.body.data).toHaveLength(1);
    expect(admin.response.headers.get('x-request-id')).toMatch(/[0-9a-f-]{36}/);
    expect(admin.response.headers.get('ratelimit-policy')).toBe('"api_read";q=120;w=60');
  });

  it('refuses a team key on the admin-only webhook routes over HTTP with 403 forbidden, on a subscription of its own channel that the admin key then deletes', async () => {
    // Prepare
    const [channel] = (await stack.call('channels/list', { apiKey: teamKey })).body.data as Array<{ id: string }>;
    const url = `https://example.com/e2e-roles/${Date.now()}`;
    const created = await stack.call('webhooks/manage', { apiKey: adminKey, params: { channelId: channel.id, url } });
    const webhookId = created.body.data.id as string;
    // Act
    const rotated = await stack.call('webhooks/manage', { apiKey: teamKey, params: { channelId: channel.id, url, rotateSecret: true } });
    const deactivated = await stack.call('webhooks/manage', { apiKey: teamKey, method: 'GET', params: { channelId: channel.id, url, isActive: false } });
    const deleted = await stack.call('webhooks/delete', { apiKey: teamKey, params: { channelId: channel.id, webhookId } });
    const listed = await stack.call('webhooks/list', { apiKey: teamKey, params: { channelId: channel.id } });
    const deletedByAdmin = await stack.call('webhooks/delete', { apiKey: adminKey, params: { channelId: channel.id, webhookId } });
    // Assess
    expect(created.status).toBe(200);
    for (const refused of [rotated, deactivated, deleted]) {
      expect([refused.status, refused.body.error]).toEqual([403, 'forbidden']);
      expect(JSON.stringify(refused.body)).not.toContain('whsec_');
    }
    const kept = listed.body.data.find((webhook: { id: string }) => webhook.id === webhookId);
    expect(kept).toMatchObject({ isActive: true, createdBy: expect.stringMatching(/^usr_/) });
    expect(kept.rotatedBy).toBe(kept.createdBy);
    expect(deletedByAdmin.body).toMatchObject({ success: true, data: { id: webhookId, deleted: true } });
  });

  it('pages contacts/list by its signed nextCursor over HTTP, every contact once', async () => {
    // Prepare
    const [channel] = (await stack.call('channels/list', { apiKey: adminKey })).body.data as Array<{ id: string }>;
    const phones = ['442079460971', '442079460972', '442079460973'];
    for (const phone of phones) {
      const written = await stack.call('contacts/manage', {
        apiKey: adminKey,
        params: { channelId: channel.id, phoneNumber: `+${phone}`, name: `Pager ${phone}` },
      });
      expect(written.status).toBe(200);
    }
    // Act
    const seen: string[] = [];
    let params: Record<string, unknown> = { channelId: channel.id, search: 'pager', limit: 1 };
    for (let page = 0; page < phones.length + 1; page++) {
      const listed = await stack.call('contacts/list', { apiKey: adminKey, params });
      expect(listed.status).toBe(200);
      seen.push(...listed.body.data.map((contact: { phone: string }) => contact.phone));
      if (!listed.body.pagination.nextCursor) break;
      params = { channelId: channel.id, search: 'pager', limit: 1, cursor: listed.body.pagination.nextCursor };
    }
    // Assess
    expect(seen.sort()).toEqual(phones);
  });

  it('serves the OpenAPI document and the docs page without a key', async () => {
    // Act
    const document = await stack.client().GET('/openapi.json');
    const docs = await fetch(`${stack.url}/docs`);
    const html = await docs.text();
    // Assess
    expect(document.response.status).toBe(200);
    expect(document.data).toEqual(JSON.parse(await readFile(OPENAPI_FILE, 'utf8')));
    expect(docs.status).toBe(200);
    expect(docs.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(html).toContain('SwaggerUIBundle');
  });

  it('answers refusals made before any handler in the envelope', async () => {
    // Act
    const noKey = await stack.call('channels/list');
    const unknownPath = await stack.call('contacts/purge', { apiKey: adminKey });
    const keyInUrl = await stack.call('channels/list', { method: 'GET', params: { apiKey: adminKey } });
    const badJson = await stack.call('labels/list', { apiKey: teamKey, body: '{oops', headers: { 'Content-Type': 'application/json' } });
    // Assess
    expect(noKey.status).toBe(401);
    expect(noKey.body).toMatchObject({ success: false, error: 'unauthorized' });
    expect(unknownPath.status).toBe(404);
    expect(unknownPath.body).toMatchObject({ success: false, error: 'not_found', message: UNKNOWN_PATH.message });
    expect(keyInUrl.status).toBe(401);
    expect(badJson.status).toBe(400);
    expect(badJson.body.error).toBe('invalid_json');
  });

  it('answers another method on an endpoint with 405 and Allow: GET, POST in the envelope, key or not; an unknown path stays 404', async () => {
    // Act
    const attempts = await Promise.all(
      [
        ['PUT', 'contacts/list', { 'X-API-Key': adminKey }],
        ['DELETE', 'contacts/delete', {}],
        ['PATCH', 'labels/manage', { 'X-API-Key': adminKey, 'Content-Type': 'application/json' }],
        ['DELETE', 'contacts/purge', { 'X-API-Key': adminKey }],
      ].map(async ([method, path, headers]) => {
        const response = await fetch(`${stack.url}${API_BASE_PATH}/${path as string}`, {
          method: method as string,
          headers: headers as Record<string, string>,
        });
        return { status: response.status, allow: response.headers.get('allow'), requestId: response.headers.get('x-request-id'), body: await response.json() };
      }),
    );
    // Assess
    const wrongMethod = { success: false, error: 'method_not_allowed', message: METHOD_NOT_ALLOWED.message };
    for (const answer of attempts.slice(0, 3)) {
      expect(answer).toMatchObject({ status: 405, allow: 'GET, POST', body: wrongMethod });
      expect(answer.requestId).toMatch(/[0-9a-f-]{36}/);
    }
    expect(attempts[3]).toMatchObject({ status: 404, allow: null, body: { success: false, error: 'not_found', message: UNKNOWN_PATH.message } });
  });

  it('answers a raw non-ASCII character or a malformed percent-encoding in the URL with a 400 in the envelope', async () => {
    // Prepare: what curl sends for a README placeholder pasted as is (`chatmid=wamid.…`), byte for byte
    const rawRequest = (target: string) =>
      new Promise<{ status: number; body: any }>((resolve, reject) => {
        const { port } = new URL(stack.url);
        const socket = connect(Number(port), '127.0.0.1', () =>
          socket.write(Buffer.from(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${adminKey}\r\nConnection: close\r\n\r\n`, 'utf8')),
        );
        let answer = '';
        socket.on('data', (chunk) => (answer += chunk.toString('utf8')));
        socket.on('error', reject);
        socket.on('end', () => {
          const [head, body] = [answer.slice(0, answer.indexOf('\r\n\r\n')), answer.slice(answer.indexOf('\r\n\r\n') + 4)];
          resolve({ status: Number(head.split(' ')[1]), body: JSON.parse(body) });
        });
      });
    // Act
    const nonAscii = await rawRequest(`${API_BASE_PATH}/chat/message/status?chatmid=wamid.\u2026`);
    const badEscape = await rawRequest(`${API_BASE_PATH}/contacts/list?search=%E0%A4%A`);
    // Assess
    expect(nonAscii).toMatchObject({ status: 400, body: { success: false, error: 'invalid_request' } });
    expect(nonAscii.body.message).toContain('percent-encode');
    expect(badEscape).toMatchObject({ status: 400, body: { success: false, error: 'invalid_parameter', details: { parameter: 'search' } } });
  });

  it('lets an operator create a workspace, keys and channels with the CLI, then use them over HTTP', async () => {
    // Act
    const workspace = await stack.admin('workspace', 'create', '--name', 'E2E Co');
    const admin = await stack.admin('key', 'create', '--workspace', workspace.json.id, '--role', 'admin', '--name', 'ci');
    const createChannel = (name: string, phoneNumberId: string) =>
      stack.admin('channel', 'create', '--workspace', workspace.json.id, '--owner', admin.json.userId, '--name', name, '--phone-number-id', phoneNumberId);
    const channel = await createChannel('E2E line', `e2e${Date.now()}`);
    const duplicate = await createChannel('Again', channel.json.phoneNumberId);
    const team = await stack.admin('key', 'create', '--workspace', workspace.json.id, '--role', 'team');
    const assigned = await stack.admin('channel', 'assign', '--channel', channel.json.id, '--user', team.json.userId);
    const listed = await stack.client(admin.json.apiKey).POST('/channels/list');
    const teamListed = await stack.call('channels/list', { apiKey: team.json.apiKey });
    // Assess
    expect(workspace.code).toBe(0);
    expect(Object.keys(admin.json).sort()).toEqual(['apiKey', 'keyId', 'userId']);
    expect(channel.json).toEqual({ id: expect.stringMatching(/^ch_/), name: 'E2E line', phoneNumberId: channel.json.phoneNumberId, isActive: true });
    expect(duplicate.code).not.toBe(0);
    expect(duplicate.stderr).toContain('already used');
    expect(assigned.json).toEqual({ channelId: channel.json.id, userId: team.json.userId });
    expect(listed.data?.data).toEqual([channel.json]);
    expect(teamListed.body.data).toEqual([channel.json]);
  });

  it('stops accepting a revoked key within 10 seconds', async () => {
    // Prepare
    const workspaceId = stack.demo.workspaces[1].id;
    const key = await stack.admin('key', 'create', '--workspace', workspaceId, '--role', 'admin');
    expect((await stack.call('channels/list', { apiKey: key.json.apiKey })).status).toBe(200);
    // Act
    const revoked = await stack.admin('key', 'revoke', '--key', key.json.keyId);
    // The stack cached the key before the revocation, so its entry has expired SHORT_KEY_CACHE_MS (its KEY_CACHE_MS) after it, however slow the machine.
    await delay(SHORT_KEY_CACHE_MS);
    const { status } = await stack.call('channels/list', { apiKey: key.json.apiKey });
    // Assess
    expect(KEY_CACHE_MS).toBeLessThanOrEqual(10_000);
    expect(revoked.json).toEqual({ keyId: key.json.keyId, revoked: true });
    expect(status).toBe(401);
  });

  it('manages contacts, labels and custom fields and keeps every record across a restart', async () => {
    // Prepare
    const channelId = stack.demo.workspaces[0].channels[1].id;
    await stack.client(adminKey).POST('/labels/manage', { body: { channelId, name: 'Lead', color: '#00AA00' } });
    await stack.client(adminKey).GET('/custom-fields/manage', { params: { query: { channelId, name: 'plan', type: 'dropdown', options: ['free', 'pro'] } } });
    // The alternative string forms of labelNames and customFieldsData, in a JSON body.
    const created = await stack.call('contacts/manage', {
      apiKey: adminKey,
      params: { channelId, phoneNumber: '+44 20 7946 0958', name: 'Restart Person', labelNames: 'lead', customFieldsData: 'plan:pro' },
    });
    // Act
    await stack.stop('SIGTERM');
    stack = await startStack({ dataDir: stack.dataDir });
    const api = stack.client(adminKey);
    const contacts = await api.POST('/contacts/list', { body: { channelId, search: 'restart' } });
    const labels = await api.GET('/labels/list', { params: { query: { channelId } } });
    const fields = await api.POST('/custom-fields/list', { body: { channelId } });
    // Assess
    expect(created.body.data).toMatchObject({ created: true, phone: '442079460958' });
    expect(contacts.data?.pagination).toEqual({ page: 1, limit: 50, total: 1, pages: 1, nextCursor: null });
    expect(contacts.data?.data).toEqual([
      {
        id: created.body.data.id,
        name: 'Restart Person',
        phone: '442079460958',
        email: null,
        labels: [{ id: expect.any(String), name: 'Lead', color: '#00AA00' }],
        customFields: { plan: 'pro' },
        status: 'active',
      },
    ]);
    // The demo seed gives every channel its own labels too; Lead is the one this test made.
    expect(labels.data?.data.map((l) => l.name)).toContain('Lead');
    expect(fields.data?.data).toEqual([expect.objectContaining({ name: 'plan', type: 'dropdown', options: ['free', 'pro'] })]);
    expect(stack.demo.workspaces[0].keys[0].apiKey).toBe(adminKey);
  });
});
