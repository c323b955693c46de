import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type RunningStack } from '../support/local-stack';

describe('the local stack end to end (npm start + operator CLI)', () => {
  let stack: RunningStack;
  let adminKey: string;
  let teamKey: string;

  beforeAll(async () => {
    stack = await startStack();
    const acme = stack.demo.workspaces[0];
    adminKey = acme.keys.find((k) => k.role === 'admin')!.apiKey;
    teamKey = acme.keys.find((k) => k.role === 'team')!.apiKey;
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
      for (const channel of workspace.channels) expect(Object.keys(channel).sort()).toEqual(['accessToken', 'displayPhoneNumber', 'id', 'name', 'phoneNumberId', 'wabaId']);
    }
  });

  it('serves channels/list to admin and team keys over HTTP, GET and POST alike', async () => {
    // Act
    const admin = await stack.call('channels/list', { apiKey: adminKey, method: 'GET' });
    const team = await stack.call('channels/list', { headers: { Authorization: `Bearer ${teamKey}` } });
    // Assess
    expect(admin.status).toBe(200);
    expect(admin.body.message).toBe('Found 2 channel(s)');
    expect(team.body.data).toHaveLength(1);
    expect(admin.headers.get('x-request-id')).toMatch(/[0-9a-f-]{36}/);
    expect(admin.headers.get('ratelimit-policy')).toBe('"api_read";q=120;w=60');
  });

  it('answers refusals made before any handler in the envelope', async () => {
    // Act
    const noKey = await stack.call('channels/list');
    const unknownPath = await stack.call('contacts/delete', { apiKey: adminKey });
    const keyInUrl = await stack.call('channels/list', { method: 'GET', params: { apiKey: adminKey } });
    const badJson = await stack.call('labels/list', { apiKey: teamKey, body: '{oops', headers: { 'Content-Type': 'application/json' } });
    // Assess
    expect(noKey.status).toBe(401);
    expect(noKey.body).toMatchObject({ success: false, error: 'unauthorized' });
    expect(unknownPath.status).toBe(404);
    expect(unknownPath.body).toMatchObject({ success: false, error: 'not_found' });
    expect(keyInUrl.status).toBe(401);
    expect(badJson.status).toBe(400);
    expect(badJson.body.error).toBe('invalid_json');
  });

  it('lets an operator create a workspace, keys and channels with the CLI, then use them over HTTP', async () => {
    // Act
    const workspace = await stack.admin('workspace', 'create', '--name', 'E2E Co');
    const admin = await stack.admin('key', 'create', '--workspace', workspace.json.id, '--role', 'admin', '--name', 'ci');
    const channel = await stack.admin('channel', 'create', '--workspace', workspace.json.id, '--owner', admin.json.userId, '--name', 'E2E line', '--phone-number-id', `e2e${Date.now()}`);
    const duplicate = await stack.admin('channel', 'create', '--workspace', workspace.json.id, '--owner', admin.json.userId, '--name', 'Again', '--phone-number-id', channel.json.phoneNumberId);
    const team = await stack.admin('key', 'create', '--workspace', workspace.json.id, '--role', 'team');
    const assigned = await stack.admin('channel', 'assign', '--channel', channel.json.id, '--user', team.json.userId);
    const listed = await stack.call('channels/list', { apiKey: admin.json.apiKey });
    const teamListed = await stack.call('channels/list', { apiKey: team.json.apiKey });
    // Assess
    expect(workspace.code).toBe(0);
    expect(Object.keys(admin.json).sort()).toEqual(['apiKey', 'keyId', 'userId']);
    expect(channel.json).toEqual({ id: expect.stringMatching(/^ch_/), name: 'E2E line', phoneNumberId: channel.json.phoneNumberId, isActive: true });
    expect(duplicate.code).not.toBe(0);
    expect(duplicate.stderr).toContain('already used');
    expect(assigned.json).toEqual({ channelId: channel.json.id, userId: team.json.userId });
    expect(listed.body.data).toEqual([channel.json]);
    expect(teamListed.body.data).toEqual([channel.json]);
  });

  it('stops accepting a revoked key within 10 seconds', async () => {
    // Prepare
    const workspaceId = stack.demo.workspaces[1].id;
    const key = await stack.admin('key', 'create', '--workspace', workspaceId, '--role', 'admin');
    expect((await stack.call('channels/list', { apiKey: key.json.apiKey })).status).toBe(200);
    // Act
    const revoked = await stack.admin('key', 'revoke', '--key', key.json.keyId);
    const revokedAt = Date.now();
    let status = 200;
    while (status === 200 && Date.now() - revokedAt < 12_000) {
      await new Promise((r) => setTimeout(r, 500));
      status = (await stack.call('channels/list', { apiKey: key.json.apiKey })).status;
    }
    // Assess
    expect(revoked.json).toEqual({ keyId: key.json.keyId, revoked: true });
    expect(status).toBe(401);
    expect(Date.now() - revokedAt).toBeLessThan(11_000);
  });

  it('manages contacts, labels and custom fields and keeps every record across a restart', async () => {
    // Prepare
    const channelId = stack.demo.workspaces[0].channels[1].id;
    await stack.call('labels/manage', { apiKey: adminKey, params: { channelId, name: 'Lead', color: '#00AA00' } });
    await stack.call('custom-fields/manage', { apiKey: adminKey, method: 'GET', params: { channelId, name: 'plan', type: 'dropdown', options: 'free,pro' } });
    const created = await stack.call('contacts/manage', { apiKey: adminKey, params: { channelId, phoneNumber: '+44 20 7946 0958', name: 'Restart Person', labelNames: 'lead', customFieldsData: 'plan:pro' } });
    // Act
    await stack.stop('SIGTERM');
    stack = await startStack({ dataDir: stack.dataDir });
    const contacts = await stack.call('contacts/list', { apiKey: adminKey, params: { channelId, search: 'restart' } });
    const labels = await stack.call('labels/list', { apiKey: adminKey, method: 'GET', params: { channelId } });
    const fields = await stack.call('custom-fields/list', { apiKey: adminKey, params: { channelId } });
    // Assess
    expect(created.body.data).toMatchObject({ created: true, phone: '442079460958' });
    expect(contacts.body.data).toEqual([
      { id: created.body.data.id, name: 'Restart Person', phone: '442079460958', email: null, labels: [{ id: expect.any(String), name: 'Lead', color: '#00AA00' }], customFields: { plan: 'pro' }, status: 'active' },
    ]);
    expect(labels.body.data.map((l: { name: string }) => l.name)).toEqual(['Lead']);
    expect(fields.body.data).toEqual([expect.objectContaining({ name: 'plan', type: 'dropdown', options: ['free', 'pro'] })]);
    expect(stack.demo.workspaces[0].keys[0].apiKey).toBe(adminKey);
  });
});
