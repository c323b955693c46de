import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminGetUserCommand,
  AdminListGroupsForUserCommand,
  AdminRemoveUserFromGroupCommand,
  AdminSetUserPasswordCommand,
  type CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import { randomBytes } from 'node:crypto';
import type { Role } from '../../shared/auth/principal';
import { createApiUser, getApiUser, getWorkspace } from '../../shared/data/tenants';
import { PORTAL_PERMISSIONS, PORTAL_USER_ATTRIBUTES, type PortalPermission } from '../../shared/routes';
import { OperatorError } from './commands';

/**
 * The portal's users, kept in the user pool (Amazon Cognito in AWS, its stand-in
 * locally, through the same user-pool API). A portal user belongs to one workspace, has
 * a role and is one API user of that workspace: the keys they create in the portal are
 * that API user's, so a team user's keys see the channels assigned to them. Permissions
 * are the pool's groups.
 */

export interface UserPoolTarget {
  client: CognitoIdentityProviderClient;
  userPoolId: string;
}

export interface UserCreateInput {
  workspaceId: string;
  email: string;
  role: Role;
  permissions: string[];
  /** Without one, a random password is made; either way it is printed once and never stored. */
  password?: string;
  /** An existing API user of the workspace to sign in as (the demo's users); without one a new API user is made. */
  apiUserId?: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Creates a portal user with a permanent password; returns the password, the only time it is shown. */
export async function userCreate(target: UserPoolTarget, input: UserCreateInput) {
  const email = input.email.trim().toLowerCase();
  if (!EMAIL.test(email)) throw new OperatorError(`--email ${input.email} is not an email address.`);
  const permissions = input.permissions.map(checkedPermission);
  if (!(await getWorkspace(input.workspaceId))) throw new OperatorError(`No workspace ${input.workspaceId}.`);
  if ((await usernameOf(target, email)) !== undefined) throw new OperatorError(`A portal user ${email} already exists.`);
  const userId = await apiUserFor(input.workspaceId, input.role, input.apiUserId);
  const password = input.password ?? generatePassword();
  const attribute = (name: string, value: string) => ({ Name: name, Value: value });
  let username: string;
  try {
    const created = await target.client.send(
      new AdminCreateUserCommand({
        UserPoolId: target.userPoolId,
        Username: email,
        MessageAction: 'SUPPRESS',
        UserAttributes: [
          attribute('email', email),
          attribute('email_verified', 'true'),
          attribute(PORTAL_USER_ATTRIBUTES.workspaceId, input.workspaceId),
          attribute(PORTAL_USER_ATTRIBUTES.role, input.role),
          attribute(PORTAL_USER_ATTRIBUTES.apiUserId, userId),
        ],
      }),
    );
    username = created.User!.Username!;
  } catch (error) {
    // Created in between: the new API user made above stays without keys, which is harmless.
    if ((error as Error).name === 'UsernameExistsException') throw new OperatorError(`A portal user ${email} already exists.`, { cause: error });
    throw error;
  }
  await target.client.send(new AdminSetUserPasswordCommand({ UserPoolId: target.userPoolId, Username: username, Password: password, Permanent: true }));
  for (const permission of permissions) await grant(target, username, permission);
  return { email, userId, workspaceId: input.workspaceId, role: input.role, permissions, password };
}

/** Gives a user a permission (idempotent); returns their permissions. */
export async function userGrant(target: UserPoolTarget, email: string, permission: string) {
  const user = await existingUser(target, email);
  await grant(target, user.username, checkedPermission(permission));
  return { email: user.email, permissions: await permissionsOf(target, user.username) };
}

/** Takes a permission away (idempotent); returns their permissions. Tokens already issued keep it until they expire. */
export async function userRevoke(target: UserPoolTarget, email: string, permission: string) {
  const user = await existingUser(target, email);
  const command = new AdminRemoveUserFromGroupCommand({ UserPoolId: target.userPoolId, Username: user.username, GroupName: checkedPermission(permission) });
  await target.client.send(command);
  return { email: user.email, permissions: await permissionsOf(target, user.username) };
}

function checkedPermission(permission: string): PortalPermission {
  if (!(PORTAL_PERMISSIONS as readonly string[]).includes(permission))
    throw new OperatorError(`--permission must be one of ${PORTAL_PERMISSIONS.join(', ')} (got ${permission}).`);
  return permission as PortalPermission;
}

async function apiUserFor(workspaceId: string, role: Role, apiUserId: string | undefined): Promise<string> {
  if (apiUserId === undefined) return (await createApiUser(workspaceId, role)).userId;
  const user = await getApiUser(workspaceId, apiUserId);
  if (!user) throw new OperatorError(`No API user ${apiUserId} in workspace ${workspaceId}.`);
  if (user.role !== role) throw new OperatorError(`API user ${apiUserId} is a ${user.role} user; --role must match.`);
  return apiUserId;
}

async function grant(target: UserPoolTarget, username: string, permission: PortalPermission): Promise<void> {
  await target.client.send(new AdminAddUserToGroupCommand({ UserPoolId: target.userPoolId, Username: username, GroupName: permission }));
}

/**
 * The pool's username of the user with that email, or undefined. Calls after this use it
 * rather than the email alias: AWS takes either, and the stand-in matches group members by
 * the username only.
 */
export async function usernameOf(target: UserPoolTarget, email: string): Promise<string | undefined> {
  try {
    return (await target.client.send(new AdminGetUserCommand({ UserPoolId: target.userPoolId, Username: email.trim().toLowerCase() }))).Username;
  } catch (error) {
    if ((error as Error).name === 'UserNotFoundException') return undefined;
    throw error;
  }
}

async function existingUser(target: UserPoolTarget, email: string): Promise<{ email: string; username: string }> {
  const normalized = email.trim().toLowerCase();
  const username = await usernameOf(target, normalized);
  if (username === undefined) throw new OperatorError(`No portal user ${normalized}.`);
  return { email: normalized, username };
}

async function permissionsOf(target: UserPoolTarget, username: string): Promise<string[]> {
  const groups = await target.client.send(new AdminListGroupsForUserCommand({ UserPoolId: target.userPoolId, Username: username }));
  return (groups.Groups ?? []).map((group) => group.GroupName!).sort();
}

/** A password the pool's policy accepts (infra/user-pool-settings.ts): 20 random characters and one of each required class. */
function generatePassword(): string {
  return `${randomBytes(15).toString('base64url')}aA1!`;
}
