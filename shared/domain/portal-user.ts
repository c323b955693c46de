import type { PortalPrincipal } from '../auth/portal-principal';
import { getApiUser, type ApiUserRecord } from '../data/tenants';
import { ForbiddenError } from '../errors';

/**
 * The API user a signed-in portal user acts as (docs/PORTAL.md): the keys they make are
 * its keys, the channels they see are its channels, exactly what its API keys see. One
 * consistent read, so a channel just assigned is there at once.
 */
export async function portalApiUser(principal: PortalPrincipal): Promise<ApiUserRecord> {
  const user = await getApiUser(principal.workspaceId, principal.apiUserId);
  if (!user) throw new ForbiddenError('Your portal user is tied to no API user of the workspace; ask an operator to fix it (user create).');
  return user;
}
