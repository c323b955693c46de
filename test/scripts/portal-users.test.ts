/**
 * The portal's users locally: the user-pool stand-in (scripts/local/user-pool.ts) kept
 * under DATA_DIR, the operator's user commands (scripts/admin/users.ts) against it, the
 * demo users, and the local gateway's ID-token check (scripts/local/id-token.ts), which
 * must refuse every token API Gateway's Cognito authorizer refuses.
 */
import { CreateUserPoolClientCommand, InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { createSign } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userCreate, userGrant, userRevoke } from '../../scripts/admin/users';
import { idTokenVerifier, type IdTokenVerifier } from '../../scripts/local/id-token';
import { DEMO_PORTAL_USERS, seedPortalUsers } from '../../scripts/local/portal-seed';
import { startUserPool, type LocalUserPool } from '../../scripts/local/user-pool';
import { workspaceCreate } from '../../scripts/admin/commands';
import { DEMO } from '../../scripts/local/seed';
import { createApiUser, getApiUser, getWorkspace } from '../../shared/data/tenants';
import { PORTAL_USER_ATTRIBUTES } from '../../shared/routes';
import { createTenant, type TestTenant } from '../support/tenants';

let dataDir: string;
let pool: LocalUserPool;
let verifier: IdTokenVerifier;
let tenant: TestTenant;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'portal-users-'));
  pool = await startUserPool(dataDir);
  verifier = await idTokenVerifier(pool);
  tenant = await createTenant();
});

afterAll(async () => {
  await pool?.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function signIn(email: string, password: string, clientId = pool.clientId) {
  const auth = await pool.client.send(
    new InitiateAuthCommand({ ClientId: clientId, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: email, PASSWORD: password } }),
  );
  return auth.AuthenticationResult!;
}

/** A token signed with the stand-in's own key (it ships in cognito-local), with the claims given. */
async function forged(claims: Record<string, unknown>): Promise<string> {
  const key = JSON.parse(await readFile(join('node_modules', 'cognito-local', 'lib', 'keys', 'cognitoLocal.private.json'), 'utf8')) as { pem: string };
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${part({ alg: 'RS256', typ: 'JWT', kid: 'CognitoLocal' })}.${part(claims)}`;
  return `${unsigned}.${createSign('RSA-SHA256').update(unsigned).sign(key.pem).toString('base64url')}`;
}

const now = () => Math.floor(Date.now() / 1000);

/** The demo's workspaces with an API user per demo key (the seed of npm start makes them with the keys). */
async function demoApiUsers(): Promise<(keyId: string) => Promise<string>> {
  const users = new Map<string, string>();
  for (const workspace of [DEMO.acme, DEMO.globex]) {
    if (!(await getWorkspace(workspace.id))) await workspaceCreate(workspace.name, workspace.id);
    for (const key of [DEMO.acme.admin, DEMO.acme.team, DEMO.globex.admin]) {
      if (!DEMO_PORTAL_USERS.some((user) => user.keyId === key.keyId && user.workspaceId === workspace.id)) continue;
      users.set(key.keyId, (await createApiUser(workspace.id, key.role)).userId);
    }
  }
  return async (keyId) => users.get(keyId)!;
}

describe('user create, grant and revoke', () => {
  it('creates a user that signs in with the printed password, as a new API user of the workspace, with its permission in the ID token', async () => {
    // Act
    const created = await userCreate(pool, { workspaceId: tenant.workspaceId, email: ' Dev@Example.com ', role: 'team', permissions: ['settings:api'] });
    const claims = await verifier.claims((await signIn('dev@example.com', created.password)).IdToken!);

    // Assess
    expect(created).toMatchObject({ email: 'dev@example.com', workspaceId: tenant.workspaceId, role: 'team', permissions: ['settings:api'] });
    expect(await getApiUser(tenant.workspaceId, created.userId)).toMatchObject({ role: 'team' });
    expect(claims).toMatchObject({
      email: 'dev@example.com',
      token_use: 'id',
      'cognito:groups': 'settings:api',
      [PORTAL_USER_ATTRIBUTES.workspaceId]: tenant.workspaceId,
      [PORTAL_USER_ATTRIBUTES.role]: 'team',
      [PORTAL_USER_ATTRIBUTES.apiUserId]: created.userId,
    });
  });

  it('refuses a second user of the same email, an unknown workspace, permission or API user, and a role that is not the API user’s', async () => {
    // Arrange
    await userCreate(pool, { workspaceId: tenant.workspaceId, email: 'twice@example.com', role: 'admin', permissions: [] });
    const base = { workspaceId: tenant.workspaceId, role: 'admin' as const, permissions: [] };

    // Act / Assess
    await expect(userCreate(pool, { ...base, email: 'TWICE@example.com' })).rejects.toThrow('A portal user twice@example.com already exists.');
    await expect(userCreate(pool, { ...base, email: 'a@example.com', workspaceId: 'ws_nope' })).rejects.toThrow('No workspace ws_nope.');
    await expect(userCreate(pool, { ...base, email: 'a@example.com', permissions: ['settings:all'] })).rejects.toThrow(
      '--permission must be one of settings:api',
    );
    await expect(userCreate(pool, { ...base, email: 'not-an-email' })).rejects.toThrow('is not an email address');
    await expect(userCreate(pool, { ...base, email: 'a@example.com', apiUserId: 'usr_nope' })).rejects.toThrow('No API user usr_nope');
    await expect(userCreate(pool, { ...base, email: 'a@example.com', role: 'team', apiUserId: tenant.adminUserId })).rejects.toThrow('--role must match');
  });

  it('grants and revokes a permission, idempotently, and the next token carries the change', async () => {
    // Arrange
    const created = await userCreate(pool, { workspaceId: tenant.workspaceId, email: 'grant@example.com', role: 'admin', permissions: [] });

    // Act / Assess
    expect(await userGrant(pool, 'grant@example.com', 'settings:api')).toEqual({ email: 'grant@example.com', permissions: ['settings:api'] });
    expect(await userGrant(pool, 'Grant@example.com', 'settings:api')).toEqual({ email: 'grant@example.com', permissions: ['settings:api'] });
    expect((await verifier.claims((await signIn('grant@example.com', created.password)).IdToken!))?.['cognito:groups']).toBe('settings:api');
    expect(await userRevoke(pool, 'grant@example.com', 'settings:api')).toEqual({ email: 'grant@example.com', permissions: [] });
    expect((await verifier.claims((await signIn('grant@example.com', created.password)).IdToken!))?.['cognito:groups']).toBeUndefined();
    await expect(userGrant(pool, 'nobody@example.com', 'settings:api')).rejects.toThrow('No portal user nobody@example.com.');
  });
});

describe('the ID-token check', () => {
  let idToken: string;
  let accessToken: string;

  beforeAll(async () => {
    const created = await userCreate(pool, { workspaceId: tenant.workspaceId, email: 'tokens@example.com', role: 'admin', permissions: ['settings:api'] });
    ({ IdToken: idToken, AccessToken: accessToken } = (await signIn('tokens@example.com', created.password)) as { IdToken: string; AccessToken: string });
  });

  it('accepts the pool’s ID token and refuses its access token', async () => {
    expect(await verifier.claims(idToken)).toMatchObject({ email: 'tokens@example.com', iss: pool.issuer, aud: pool.clientId });
    expect(await verifier.claims(accessToken)).toBeUndefined();
  });

  it('refuses an ID token of another app client of the pool', async () => {
    // Arrange
    const other = await pool.client.send(
      new CreateUserPoolClientCommand({ UserPoolId: pool.userPoolId, ClientName: 'other', ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH'] }),
    );
    const foreign = await userCreate(pool, { workspaceId: tenant.workspaceId, email: 'other-client@example.com', role: 'admin', permissions: [] });
    const token = (await signIn('other-client@example.com', foreign.password, other.UserPoolClient!.ClientId!)).IdToken!;

    // Act / Assess
    expect(await verifier.claims(token)).toBeUndefined();
  });

  it('refuses an expired token, another issuer’s, one without token_use id, and a changed payload, all signed with the right key', async () => {
    // Arrange
    const valid = { iss: pool.issuer, aud: pool.clientId, token_use: 'id', sub: 'u1', iat: now() - 10, exp: now() + 600 };
    const [, payload, signature] = idToken.split('.');
    const changed = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    changed[PORTAL_USER_ATTRIBUTES.workspaceId] = 'ws_someone_else';

    // Act / Assess
    expect(await verifier.claims(await forged(valid))).toMatchObject({ sub: 'u1' });
    expect(await verifier.claims(await forged({ ...valid, iat: now() - 7200, exp: now() - 3600 }))).toBeUndefined();
    expect(await verifier.claims(await forged({ ...valid, iss: `${pool.endpoint}/local_other` }))).toBeUndefined();
    expect(await verifier.claims(await forged({ ...valid, token_use: 'access' }))).toBeUndefined();
    expect(await verifier.claims(`${idToken.split('.')[0]}.${Buffer.from(JSON.stringify(changed)).toString('base64url')}.${signature}`)).toBeUndefined();
    expect(await verifier.claims('not-a-jwt')).toBeUndefined();
  });
});

describe('the stand-in under DATA_DIR', () => {
  it('keeps its pool, client and users across a restart, and seeds each demo user once', async () => {
    // Arrange
    const created = await userCreate(pool, { workspaceId: tenant.workspaceId, email: 'kept@example.com', role: 'admin', permissions: [] });
    const demoApiUser = await demoApiUsers();
    const demoPool = await startUserPool(await mkdtemp(join(tmpdir(), 'portal-demo-')));

    // Act
    await pool.close();
    pool = await startUserPool(dataDir);
    verifier = await idTokenVerifier(pool);
    await seedPortalUsers(demoPool, demoApiUser);
    await seedPortalUsers(demoPool, demoApiUser);

    // Assess
    expect(await verifier.claims((await signIn('kept@example.com', created.password)).IdToken!)).toMatchObject({ email: 'kept@example.com' });
    const demoVerifier = await idTokenVerifier(demoPool);
    for (const demo of DEMO_PORTAL_USERS) {
      const auth = await demoPool.client.send(
        new InitiateAuthCommand({
          ClientId: demoPool.clientId,
          AuthFlow: 'USER_PASSWORD_AUTH',
          AuthParameters: { USERNAME: demo.email, PASSWORD: demo.password },
        }),
      );
      const claims = await demoVerifier.claims(auth.AuthenticationResult!.IdToken!);
      expect(claims?.[PORTAL_USER_ATTRIBUTES.workspaceId], demo.email).toBe(demo.workspaceId);
      expect(claims?.['cognito:groups'], demo.email).toBe(demo.permissions.length ? demo.permissions.join(',') : undefined);
    }
    await demoPool.close();
  });
});
