import { ForbiddenError, UnauthenticatedError } from '../errors';
import { PORTAL_PERMISSIONS, PORTAL_USER_ATTRIBUTES, type PortalPermission } from '../routes';
import type { Role } from './principal';

/**
 * Who is calling the portal API: read from the user pool's ID-token claims that API
 * Gateway's Cognito authorizer (locally the gateway's own check, scripts/local/id-token.ts)
 * attached to the event, never from parameters. The workspace, role and API user are
 * attributes only operators can write (infra/user-pool.ts); permissions are the groups.
 */
export interface PortalPrincipal {
  email: string;
  workspaceId: string;
  role: Role;
  /** The API user whose keys this user creates and sees. */
  apiUserId: string;
  permissions: PortalPermission[];
}

/** The principal of verified claims; 401 when a claim that places the user is missing. */
export function portalPrincipalFromClaims(claims: Record<string, unknown> | null | undefined): PortalPrincipal {
  const claim = (name: string) => (typeof claims?.[name] === 'string' ? (claims[name] as string) : undefined);
  const workspaceId = claim(PORTAL_USER_ATTRIBUTES.workspaceId);
  const role = claim(PORTAL_USER_ATTRIBUTES.role);
  const apiUserId = claim(PORTAL_USER_ATTRIBUTES.apiUserId);
  const email = claim('email');
  if (!workspaceId || !apiUserId || !email || (role !== 'admin' && role !== 'team'))
    throw new UnauthenticatedError('Sign in to the portal: send the user pool’s ID token as Authorization: Bearer.');
  return { email, workspaceId, role, apiUserId, permissions: groupsOf(claim('cognito:groups')) };
}

/** 403 unless the user holds the permission; the message names it. */
export function requirePermission(principal: PortalPrincipal, permission: PortalPermission): void {
  if (!principal.permissions.includes(permission))
    throw new ForbiddenError(`The developer portal needs the permission ${permission}; ask a workspace admin to grant it.`, { permission });
}

/**
 * `cognito:groups` as API Gateway passes it: a REST API's Cognito authorizer joins the
 * list with commas, an HTTP API's JWT authorizer writes `[a b]`; either is read, and only
 * the portal's permissions are kept.
 */
function groupsOf(value: string | undefined): PortalPermission[] {
  const names = (value ?? '').replace(/^\[|\]$/g, '').split(/[,\s]+/);
  return PORTAL_PERMISSIONS.filter((permission) => names.includes(permission));
}
