/**
 * A route of the portal API through the local gateway: authorized by the user pool's
 * ID token as API Gateway's Cognito authorizer does (scripts/local/id-token.ts), its
 * claims handed to the function, which reads its principal and permission from them
 * (shared/auth/portal-principal.ts). The API-key authorizer is never asked.
 */
import { InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userCreate } from '../../scripts/admin/users';
import { startGateway, type ProxyHandler } from '../../scripts/local/gateway';
import { idTokenVerifier } from '../../scripts/local/id-token';
import { startUserPool, type LocalUserPool } from '../../scripts/local/user-pool';
import { portalPrincipalFromClaims, requirePermission } from '../../shared/auth/portal-principal';
import { AppError } from '../../shared/errors';
import { createTenant, type TestTenant } from '../support/tenants';

let dataDir: string;
let pool: LocalUserPool;
let gateway: Awaited<ReturnType<typeof startGateway>>;
let tenant: TestTenant;
let apiKeyAuthorizerCalls = 0;

/** The function behind the route: its principal, or the error's status and code, as JSON. */
const whoAmI: ProxyHandler = async (event) => {
  try {
    const principal = portalPrincipalFromClaims(event.requestContext.authorizer?.claims as Record<string, unknown>);
    requirePermission(principal, 'settings:api');
    return { statusCode: 200, body: JSON.stringify(principal) };
  } catch (error) {
    const failure = error as AppError;
    return { statusCode: failure.kind === 'forbidden' ? 403 : 401, body: JSON.stringify({ error: failure.code, message: failure.message }) };
  }
};

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'portal-gateway-'));
  pool = await startUserPool(dataDir);
  tenant = await createTenant();
  gateway = await startGateway({
    port: 0,
    routes: [{ path: '/portal/api/whoami', methods: ['GET'], handler: whoAmI, authorized: true, userPool: true }],
    authorizer: async () => {
      apiKeyAuthorizerCalls += 1;
      throw new Error('Unauthorized');
    },
    userPool: await idTokenVerifier(pool),
  });
});

afterAll(async () => {
  await gateway?.close();
  await pool?.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function tokensOf(email: string, permissions: string[]) {
  const created = await userCreate(pool, { workspaceId: tenant.workspaceId, email, role: 'admin', permissions, apiUserId: tenant.adminUserId });
  const auth = await pool.client.send(
    new InitiateAuthCommand({ ClientId: pool.clientId, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: email, PASSWORD: created.password } }),
  );
  return auth.AuthenticationResult!;
}

const call = (authorization?: string) =>
  fetch(`${gateway.url}/portal/api/whoami`, { headers: authorization === undefined ? {} : { Authorization: authorization } });

describe('a portal route behind the user pool', () => {
  it('hands a signed-in user’s claims to the function, which finds the workspace, role, API user and permission in them', async () => {
    // Arrange
    const { IdToken } = await tokensOf('holder@example.com', ['settings:api']);

    // Act
    const response = await call(`Bearer ${IdToken}`);

    // Assess
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      email: 'holder@example.com',
      workspaceId: tenant.workspaceId,
      role: 'admin',
      apiUserId: tenant.adminUserId,
      permissions: ['settings:api'],
    });
    expect(apiKeyAuthorizerCalls).toBe(0);
  });

  it('answers 401 without a token, with an access token, an API key or a changed ID token, before the function runs', async () => {
    // Arrange
    const { IdToken, AccessToken } = await tokensOf('refused@example.com', ['settings:api']);
    const [header, , signature] = IdToken!.split('.');
    const otherPayload = Buffer.from(JSON.stringify({ email: 'refused@example.com', 'custom:workspaceId': 'ws_other' })).toString('base64url');

    // Act
    const statuses = await Promise.all(
      [undefined, `Bearer ${AccessToken}`, `Bearer ${tenant.adminKey}`, `Bearer ${header}.${otherPayload}.${signature}`].map(async (value) => {
        const response = await call(value);
        return [response.status, ((await response.json()) as { error: string }).error];
      }),
    );

    // Assess
    expect(statuses).toEqual(Array(4).fill([401, 'unauthorized']));
  });

  it('answers 403 naming settings:api to a signed-in user without it', async () => {
    // Arrange
    const { IdToken } = await tokensOf('viewer@example.com', []);

    // Act
    const response = await call(`Bearer ${IdToken}`);

    // Assess
    expect(response.status).toBe(403);
    expect(((await response.json()) as { message: string }).message).toContain('settings:api');
  });
});

describe('portalPrincipalFromClaims', () => {
  const claims = { email: 'a@example.com', 'custom:workspaceId': 'ws_1', 'custom:role': 'team', 'custom:apiUserId': 'usr_1' };

  it('reads the groups as a REST API (comma-joined) and an HTTP API ([a b]) pass them, keeping only portal permissions', () => {
    expect(portalPrincipalFromClaims({ ...claims, 'cognito:groups': 'other,settings:api' }).permissions).toEqual(['settings:api']);
    expect(portalPrincipalFromClaims({ ...claims, 'cognito:groups': '[other settings:api]' }).permissions).toEqual(['settings:api']);
    expect(portalPrincipalFromClaims({ ...claims, 'cognito:groups': 'settings:apix' }).permissions).toEqual([]);
    expect(portalPrincipalFromClaims(claims).permissions).toEqual([]);
  });

  it('refuses claims that do not place the user (401)', () => {
    for (const missing of Object.keys(claims)) {
      const partial = Object.fromEntries(Object.entries(claims).filter(([name]) => name !== missing));
      expect(() => portalPrincipalFromClaims(partial), missing).toThrow(expect.objectContaining({ kind: 'unauthenticated' }));
    }
    expect(() => portalPrincipalFromClaims({ ...claims, 'custom:role': 'owner' })).toThrow(expect.objectContaining({ kind: 'unauthenticated' }));
    expect(() => portalPrincipalFromClaims(undefined)).toThrow(expect.objectContaining({ kind: 'unauthenticated' }));
  });
});
