import type { Role } from '../data/tenants';
import { UnauthenticatedError } from '../errors';

export type { Role } from '../data/tenants';

/** Who is calling: resolved by the authorizer from the API key, never from parameters. */
export interface Principal {
  workspaceId: string;
  userId: string;
  keyId: string;
  role: Role;
  /** Channels this key may use: the admin's own channels, or the team user's assigned ones. */
  channelIds: string[];
}

/** The authorizer's context values must be strings, numbers or booleans: channel ids travel comma-joined. */
export type AuthorizerContext = {
  workspaceId: string;
  userId: string;
  keyId: string;
  role: Role;
  channelIds: string;
};

export function toAuthorizerContext(principal: Principal): AuthorizerContext {
  return { ...principal, channelIds: principal.channelIds.join(',') };
}

/** Reads the principal the authorizer attached to a REST proxy event; 401 when absent. */
export function principalFromAuthorizer(authorizer: Record<string, unknown> | null | undefined): Principal {
  const { workspaceId, userId, keyId, role, channelIds } = (authorizer ?? {}) as Partial<AuthorizerContext>;
  if (!workspaceId || !userId || !keyId || (role !== 'admin' && role !== 'team')) throw new UnauthenticatedError();
  return { workspaceId, userId, keyId, role, channelIds: channelIds ? channelIds.split(',') : [] };
}
