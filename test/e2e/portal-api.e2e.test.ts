/**
 * The portal API end to end against `npm start` (INTERFACE §17): a demo user of demo.json
 * signs in through the Cognito stand-in (USER_PASSWORD_AUTH), creates a key, calls the
 * API with it, finds the call in the key's request log and usage, and revokes it; a user
 * without `settings:api` gets 403, and no user reaches another's keys.
 */
import { InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { localUserPoolClient } from '../../scripts/local/user-pool';
import { eventually } from '../support/eventually';
import { startReceiver } from '../support/receiver';
import { expectNoCallRefused } from '../support/template-mode';
import { demoKey, SHORT_KEY_CACHE_MS, startStack, type RunningStack } from '../support/local-stack';

interface DemoPortal {
  cognitoEndpoint: string;
  clientId: string;
  users: Array<{ email: string; password: string; workspaceId: string; role: string; permissions: string[] }>;
}

let stack: RunningStack;

/** Starts a stack of `source`; the request log is the handlers' INFO lines in DATA_DIR/logs/service.log, as npm start writes them by default. */
function stackOf(source: 'routes' | 'template') {
  beforeAll(async () => {
    stack = await startStack({ env: { POWERTOOLS_LOG_LEVEL: 'INFO', KEY_CACHE_MS: String(SHORT_KEY_CACHE_MS) }, source });
  }, 300_000);
  afterAll(async () => {
    await stack?.stop();
  });
}

/** Signs a demo user in as the page does, and returns their ID token. */
async function signIn(email: string): Promise<string> {
  const portalOf = (stack.demo as unknown as { portal: DemoPortal }).portal;
  const user = portalOf.users.find((candidate) => candidate.email === email)!;
  const client = localUserPoolClient(portalOf.cognitoEndpoint);
  const auth = await client.send(
    new InitiateAuthCommand({ ClientId: portalOf.clientId, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: user.email, PASSWORD: user.password } }),
  );
  return auth.AuthenticationResult!.IdToken!;
}

async function portal(idToken: string | undefined, path: string, options: { method?: 'GET' | 'POST'; params?: Record<string, string> } = {}) {
  const method = options.method ?? 'GET';
  const query = method === 'GET' && options.params ? `?${new URLSearchParams(options.params)}` : '';
  const response = await fetch(`${stack.url}/portal/api/${path}${query}`, {
    method,
    headers: { ...(idToken && { Authorization: `Bearer ${idToken}` }), ...(method === 'POST' && { 'Content-Type': 'application/json' }) },
    body: method === 'POST' ? JSON.stringify(options.params ?? {}) : undefined,
  });
  return { status: response.status, body: (await response.json()) as any };
}

/** Another method on each portal path, as curl sends it: 405 in the envelope, with the path's own methods in Allow. */
async function wrongMethods() {
  const attempts: Array<[string, string]> = [
    ['DELETE', 'keys'],
    ['PUT', 'keys/revoke'],
    ['POST', 'usage'],
    ['PATCH', 'webhooks'],
  ];
  return Promise.all(
    attempts.map(async ([method, path]) => {
      const response = await fetch(`${stack.url}/portal/api/${path}`, { method });
      return { method, path, status: response.status, allow: response.headers.get('allow'), body: (await response.json()) as any };
    }),
  );
}

const WRONG_METHOD_ANSWERS = [
  { status: 405, allow: 'GET, POST', body: { success: false, error: 'method_not_allowed', message: '/portal/api/keys takes GET and POST only.' } },
  { status: 405, allow: 'POST', body: { success: false, error: 'method_not_allowed', message: '/portal/api/keys/revoke takes POST only.' } },
  { status: 405, allow: 'GET', body: { success: false, error: 'method_not_allowed', message: '/portal/api/usage takes GET only.' } },
  { status: 405, allow: 'GET', body: { success: false, error: 'method_not_allowed', message: '/portal/api/webhooks takes GET only.' } },
];

const waitUntil = (at: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));

describe('the portal API on npm start', () => {
  stackOf('routes');

  it('signs in, creates a key, uses it, sees the call in its requests and usage, and revokes it: the API refuses it within 10 s', async () => {
    // Arrange
    const idToken = await signIn('team@acme.example');

    // Act
    const created = await portal(idToken, 'keys', { method: 'POST', params: { name: 'e2e' } });
    const used = await stack.call('channels/list', { apiKey: created.body.apiKey, method: 'GET' });
    const logged = await eventually(async () => {
      const latest = await portal(idToken, 'requests', { params: { keyId: created.body.keyId } });
      return latest.body.length > 0 ? latest.body : undefined;
    });
    const usage = await portal(idToken, 'usage', { params: { keyId: created.body.keyId } });
    const listed = await portal(idToken, 'keys');
    const revoked = await portal(idToken, 'keys/revoke', { method: 'POST', params: { keyId: created.body.keyId } });
    const revokedAt = Date.now();
    await waitUntil(revokedAt + SHORT_KEY_CACHE_MS);
    const afterRevocation = await stack.call('channels/list', { apiKey: created.body.apiKey, method: 'GET' });
    const listedAfter = await portal(idToken, 'keys');

    // Assess
    expect(created.status).toBe(200);
    expect(created.body.apiKey).toMatch(/^wsk_/);
    expect(used.status).toBe(200);
    expect(logged).toEqual([
      { at: expect.any(String), endpoint: 'channels/list', method: 'GET', status: 200, latencyMs: expect.any(Number), rateClass: 'api_read' },
    ]);
    expect(usage.body.last24Hours).toEqual({ requests: 1, throttled: 0, byRateClass: { api_read: 1 } });
    const row = listed.body.find((key: { keyId: string }) => key.keyId === created.body.keyId);
    expect(row).toEqual({
      keyId: created.body.keyId,
      name: 'e2e',
      prefix: created.body.prefix,
      createdAt: created.body.createdAt,
      lastUsedAt: logged[0].at,
      expiresAt: null,
      status: 'active',
    });
    expect(JSON.stringify(listed.body)).not.toContain(created.body.apiKey);
    expect(revoked).toEqual({ status: 200, body: { keyId: created.body.keyId, revoked: true } });
    expect(afterRevocation.status).toBe(401);
    expect(listedAfter.body.find((key: { keyId: string }) => key.keyId === created.body.keyId).status).toBe('revoked');
  });

  it('lists the portal in demo.json (url, cognitoEndpoint, userPoolId, clientId, users), each user able to sign in to their own workspace', async () => {
    // Arrange
    const { portal: listed } = stack.demo as unknown as { portal: DemoPortal & { url: string; userPoolId: string } };
    const workspaceIds = stack.demo.workspaces.map((workspace) => workspace.id);

    // Act
    const tokens = await Promise.all(listed.users.map((user) => signIn(user.email)));
    const claims = tokens.map((token) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')));

    // Assess
    expect(Object.keys(listed).sort()).toEqual(['clientId', 'cognitoEndpoint', 'url', 'userPoolId', 'users']);
    expect(listed.url).toBe(`${stack.url}/portal/`);
    expect(claims[0].iss).toBe(`${listed.cognitoEndpoint}/${listed.userPoolId}`);
    for (const [i, user] of listed.users.entries()) {
      expect(Object.keys(user).sort()).toEqual(['email', 'password', 'permissions', 'role', 'workspaceId']);
      expect(workspaceIds).toContain(user.workspaceId);
      expect(claims[i]).toMatchObject({ email: user.email, aud: listed.clientId, 'custom:workspaceId': user.workspaceId, 'custom:role': user.role });
    }
    expect(listed.users.some((user) => user.permissions.includes('settings:api'))).toBe(true);
    expect(listed.users.some((user) => !user.permissions.includes('settings:api'))).toBe(true);
  });

  it('refuses a call without a token (401) and a user without settings:api (403 naming it)', async () => {
    // Arrange
    const viewer = await signIn('viewer@acme.example');

    // Act
    const anonymous = await portal(undefined, 'keys');
    const withApiKey = await fetch(`${stack.url}/portal/api/keys`, { headers: { 'X-API-Key': stack.demo.workspaces[0].keys[0].apiKey } });
    const forbidden = await portal(viewer, 'keys', { method: 'POST', params: { name: 'nope' } });

    // Assess
    expect(anonymous.status).toBe(401);
    expect(withApiKey.status).toBe(401);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.message).toContain('settings:api');
  });

  it("answers another method on a portal path with 405 and the path's own methods in Allow, signed in or not", async () => {
    // Act
    const answers = await wrongMethods();

    // Assess
    expect(answers.map(({ status, allow, body }) => ({ status, allow, body }))).toEqual(WRONG_METHOD_ANSWERS);
  });

  it("keeps users to their own keys: a team user cannot see an admin's key, another workspace's user gets 404", async () => {
    // Arrange
    const [admin, team, globex] = await Promise.all(['admin@acme.example', 'team@acme.example', 'admin@globex.example'].map(signIn));
    const adminKey = await portal(admin, 'keys', { method: 'POST', params: { name: 'admin only' } });

    // Act
    const teamList = await portal(team, 'keys');
    const teamUsage = await portal(team, 'usage', { params: { keyId: adminKey.body.keyId } });
    const globexRequests = await portal(globex, 'requests', { params: { keyId: adminKey.body.keyId } });
    const globexRevoke = await portal(globex, 'keys/revoke', { method: 'POST', params: { keyId: adminKey.body.keyId } });

    // Assess
    expect(teamList.body.map((key: { keyId: string }) => key.keyId)).not.toContain(adminKey.body.keyId);
    for (const refusal of [teamUsage, globexRequests, globexRevoke]) expect([refusal.status, refusal.body.error]).toEqual([404, 'not_found']);
    expect((await stack.call('channels/list', { apiKey: adminKey.body.apiKey, method: 'GET' })).status).toBe(200);
  });

  it('lists the channel’s subscriptions, shows a delivery and redelivers it; a team user sees their assigned channel only, another workspace nothing', async () => {
    // Arrange: the demo admin subscribes a receiver on Acme Support (the team user's channel) and another URL on Acme Sales; a message arrives
    const receiver = await startReceiver('/portal-e2e');
    onTestFinished(() => receiver.close());
    const adminKey = demoKey(stack);
    const [support, sales] = ['ch_demoacmesupport', 'ch_demoacmesales'];
    const subscribe = async (channelId: string, url: string) => {
      const answer = await stack.call('webhooks/manage', { apiKey: adminKey, params: { channelId, url, events: 'message.received' } });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body.data as { id: string; secret: string };
    };
    const supportHook = await subscribe(support, receiver.url);
    receiver.secrets.push(supportHook.secret);
    const salesHook = await subscribe(sales, 'https://example.com/portal-e2e');
    await stack.admin('inbound', '--channel', support, '--from', '+14155550191', '--text', 'hello portal');
    const [admin, team, globex] = await Promise.all(['admin@acme.example', 'team@acme.example', 'admin@globex.example'].map(signIn));

    // Act
    const adminList = await portal(admin, 'webhooks');
    const teamList = await portal(team, 'webhooks');
    const delivered = await eventually(async () => {
      const log = await portal(team, 'webhooks/deliveries', { params: { channelId: support, webhookId: supportHook.id } });
      return log.body.deliveries?.find((delivery: { status: string }) => delivery.status === 'succeeded');
    });
    const redelivered = await portal(team, 'webhooks/redeliver', {
      method: 'POST',
      params: { channelId: support, webhookId: supportHook.id, eventId: delivered.eventId },
    });
    await eventually(async () => (receiver.received.length >= 2 ? true : undefined));
    const teamSales = await portal(team, 'webhooks/deliveries', { params: { channelId: sales, webhookId: salesHook.id } });
    const globexList = await portal(globex, 'webhooks');
    const globexDeliveries = await portal(globex, 'webhooks/deliveries', { params: { webhookId: supportHook.id } });

    // Assess
    expect(adminList.body.map((sub: { id: string }) => sub.id)).toEqual(expect.arrayContaining([supportHook.id, salesHook.id]));
    expect(teamList.body.map((sub: { id: string; channelId: string }) => sub.channelId)).toEqual(teamList.body.map(() => support));
    expect(teamList.body.map((sub: { id: string }) => sub.id)).toContain(supportHook.id);
    expect(JSON.stringify(adminList.body)).not.toContain(supportHook.secret);
    expect(delivered).toMatchObject({ type: 'message.received', attempts: 1, lastStatusCode: 200 });
    expect(redelivered).toEqual({ status: 200, body: { webhookId: supportHook.id, eventId: delivered.eventId, status: 'pending' } });
    expect(receiver.received.map((delivery) => [delivery.webhookId, delivery.verifiedBy])).toEqual([
      [delivered.eventId, [supportHook.secret]],
      [delivered.eventId, [supportHook.secret]],
    ]);
    expect([teamSales.status, teamSales.body.error]).toEqual([403, 'forbidden']);
    expect(globexList).toEqual({ status: 200, body: [] });
    expect([globexDeliveries.status, globexDeliveries.body.error]).toEqual([404, 'not_found']);
  });
});

describe('the portal API in the template-driven mode (its methods, authorizer and functions from the synthesized template)', () => {
  stackOf('template');
  // Assess, after the tests: the portal functions' calls are within their roles (least privilege checked, not only read)
  afterAll(() => expectNoCallRefused('portal'));

  it('creates a key that works on the API, shows its request, revokes it, and refuses a user without settings:api', async () => {
    // Arrange
    const [team, viewer] = await Promise.all(['team@acme.example', 'viewer@acme.example'].map(signIn));

    // Act
    const created = await portal(team, 'keys', { method: 'POST', params: { name: 'template' } });
    const used = await stack.call('channels/list', { apiKey: created.body.apiKey, method: 'GET' });
    const logged = await eventually(async () => {
      const latest = await portal(team, 'requests', { params: { keyId: created.body.keyId } });
      return latest.body.length > 0 ? latest.body : undefined;
    });
    const revoked = await portal(team, 'keys/revoke', { method: 'POST', params: { keyId: created.body.keyId } });
    await waitUntil(Date.now() + SHORT_KEY_CACHE_MS);
    const afterRevocation = await stack.call('channels/list', { apiKey: created.body.apiKey, method: 'GET' });
    const forbidden = await portal(viewer, 'keys');

    // Assess
    expect(created.status).toBe(200);
    expect(used.status).toBe(200);
    expect(logged.map((request: { endpoint: string; status: number }) => [request.endpoint, request.status])).toEqual([['channels/list', 200]]);
    expect(revoked.body).toEqual({ keyId: created.body.keyId, revoked: true });
    expect(afterRevocation.status).toBe(401);
    expect([forbidden.status, forbidden.body.error]).toEqual([403, 'forbidden']);
  });

  it("answers another method on a portal path with 405 from the template's mock ANY methods, as under npm start", async () => {
    // Act
    const answers = await wrongMethods();

    // Assess
    expect(answers.map(({ status, allow, body }) => ({ status, allow, body }))).toEqual(WRONG_METHOD_ANSWERS);
  });

  it("serves the /portal/ page pointed at npm start's Cognito stand-in, as under npm start (not the template's pool references)", async () => {
    // Arrange
    const { cognitoEndpoint, clientId } = (stack.demo as unknown as { portal: DemoPortal }).portal;

    // Act
    const response = await fetch(`${stack.url}/portal/`);
    const html = await response.text();

    // Assess
    expect(response.status).toBe(200);
    expect(html).toContain(JSON.stringify(cognitoEndpoint));
    expect(html).toContain(JSON.stringify(clientId));
    expect(response.headers.get('content-security-policy')).toContain(`connect-src 'self' ${new URL(cognitoEndpoint).origin}`);
  });
});
