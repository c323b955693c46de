import { createHash } from 'node:crypto';
import type { Role } from '../../shared/auth/principal';
import { SUPPORT_FUNCTIONS, type PortalPermission } from '../../shared/routes';
import type { UserPoolTarget } from '../admin/users';
import { listenForUserPool, type UserPoolAddress } from './lazy-user-pool';
import { DEMO } from './seed';

/**
 * The portal's demo users, seeded into the user-pool stand-in when its pool is made.
 * Each signs in as one of the demo's API users (so an admin's portal keys see the
 * admin's channels, the team user's the channel assigned to them). Passwords derive
 * from fixed names, like the demo keys: the same on every machine, demo use only.
 */

export interface DemoPortalUser {
  email: string;
  password: string;
  workspaceId: string;
  role: Role;
  permissions: PortalPermission[];
  /** The demo key whose API user this portal user is. */
  keyId: string;
}

const password = (label: string) => `Demo-${createHash('sha256').update(`workspace-api-demo:portal-${label}`).digest('base64url').slice(0, 12)}-7a`;

const user = (email: string, workspaceId: string, role: Role, permissions: PortalPermission[], keyId: string): DemoPortalUser => ({
  email,
  password: password(email),
  workspaceId,
  role,
  permissions,
  keyId,
});

/** One admin and one team user with `settings:api` per the Acme workspace, one without it, and Globex's admin (for isolation). */
export const DEMO_PORTAL_USERS: readonly DemoPortalUser[] = [
  user('admin@acme.example', DEMO.acme.id, 'admin', ['settings:api'], DEMO.acme.admin.keyId),
  user('team@acme.example', DEMO.acme.id, 'team', ['settings:api'], DEMO.acme.team.keyId),
  user('viewer@acme.example', DEMO.acme.id, 'team', [], DEMO.acme.team.keyId),
  user('admin@globex.example', DEMO.globex.id, 'admin', ['settings:api'], DEMO.globex.admin.keyId),
];

/** Creates each demo portal user the pool lacks (every start: a start that stopped half-way is finished by the next). */
export async function seedPortalUsers(target: UserPoolTarget, apiUserOfKey: (keyId: string) => Promise<string>): Promise<void> {
  const { userCreate, usernameOf } = await import('../admin/users');
  for (const demo of DEMO_PORTAL_USERS) {
    if ((await usernameOf(target, demo.email)) !== undefined) continue;
    await userCreate(target, { ...demo, apiUserId: await apiUserOfKey(demo.keyId), password: demo.password });
  }
}

/** demo.json's `portal`: where the portal is and its demo users (docs/PORTAL.md). */
export function demoPortal(gatewayUrl: string, pool: Pick<UserPoolAddress, 'endpoint' | 'userPoolId' | 'clientId'>) {
  return {
    url: `${gatewayUrl}${SUPPORT_FUNCTIONS.portalPage.publicPath}/`,
    cognitoEndpoint: pool.endpoint,
    userPoolId: pool.userPoolId,
    clientId: pool.clientId,
    users: DEMO_PORTAL_USERS.map(({ email, password, workspaceId, role, permissions }) => ({ email, password, workspaceId, role, permissions })),
  };
}

/**
 * The user-pool stand-in of DATA_DIR, listening now (its endpoint and ids are known at
 * once, for demo.json); cognito-local is loaded, the pool made and the demo users it
 * lacks created on its first request, before that request is answered.
 */
export async function listenForPortalUserPool(dataDir: string, apiUserOfKey: (keyId: string) => Promise<string>) {
  return listenForUserPool(dataDir, async (address) =>
    (await import('./user-pool')).userPoolApp(dataDir, address, (pool) => seedPortalUsers(pool, apiUserOfKey)),
  );
}
