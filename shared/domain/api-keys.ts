import { API_KEY_PREFIX, generateApiKey, hashApiKey } from '../auth/api-keys';
import type { Role } from '../auth/principal';
import { clock } from '../clock';
import { getApiUser, putApiKey, revokeApiKey, setUsagePlanKey } from '../data/tenants';
import { newId } from '../ids';

/**
 * Issuing and revoking API keys, for the operator CLI (scripts/admin) and the developer
 * portal alike, so a key is the same whoever made it. `usagePlanId` is the AWS usage plan
 * (unset locally): a user's first active key gets the user a usage-plan key, the last
 * revoked one takes it out again. The usage-plan module (and with it the API Gateway
 * client) is loaded only then, so the operator CLI and the tests, which run with no usage
 * plan, never load it.
 */

export interface IssueKeyInput {
  workspaceId: string;
  userId: string;
  role: Role;
  name?: string;
  /** ISO 8601, already checked. */
  expiresAt?: string;
  usagePlanId?: string;
  /** Seed only: a fixed key so the demo keys are the same every time. */
  apiKey?: string;
  keyId?: string;
}

export interface IssuedKey {
  keyId: string;
  /** The secret: returned here only, stored as its hash. */
  apiKey: string;
  prefix: string;
  createdAt: string;
}

const usagePlanKeys = () => import('../auth/usage-plan-keys');

/** How much of a key its lists show: `wsk_` and 4 characters (24 bits of 256). */
export const shownPrefix = (apiKey: string) => apiKey.slice(0, API_KEY_PREFIX.length + 4);

export async function issueApiKey(input: IssueKeyInput): Promise<IssuedKey> {
  const apiKey = input.apiKey ?? generateApiKey();
  const keyId = input.keyId ?? newId('key');
  const createdAt = clock.nowIso();
  const prefix = shownPrefix(apiKey);
  await putApiKey(
    {
      keyHash: hashApiKey(apiKey),
      keyId,
      workspaceId: input.workspaceId,
      userId: input.userId,
      role: input.role,
      name: input.name,
      expiresAt: input.expiresAt ? new Date(input.expiresAt).toISOString() : undefined,
      revoked: false,
      createdAt,
    },
    { prefix },
  );
  if (input.usagePlanId) {
    const user = await getApiUser(input.workspaceId, input.userId);
    if (user && !user.usagePlanKeyValue)
      await setUsagePlanKey(
        input.workspaceId,
        input.userId,
        await (await usagePlanKeys()).createUsagePlanKey(input.usagePlanId, input.workspaceId, input.userId),
      );
  }
  return { keyId, apiKey, prefix, createdAt };
}

/** Revokes a key; undefined when no key has that id, else its user and how many active keys it has left. */
export async function withdrawApiKey(keyId: string, usagePlanId?: string) {
  const user = await revokeApiKey(keyId);
  if (!user) return undefined;
  if (usagePlanId && user.activeKeys === 0 && user.usagePlanKeyId) {
    await (await usagePlanKeys()).removeUsagePlanKey(usagePlanId, user.usagePlanKeyId);
    await setUsagePlanKey(user.workspaceId, user.userId, null);
  }
  return user;
}
