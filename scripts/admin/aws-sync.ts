import { newId } from '../../shared/ids';
import { getApiUser, setUsagePlanKey } from '../../shared/data/tenants';
import { awsSettingsFromEnv, createUsagePlanKey, putChannelToken, removeUsagePlanKey } from './aws';
import { channelCreate, OperatorError, type ChannelCreateInput } from './commands';

/**
 * What the operator CLI adds when it runs against AWS: it keeps API Gateway's
 * usage-plan keys in step with the API users' keys, and puts channel tokens in
 * Secrets Manager. Locally none of this runs.
 */

/** A user's first key gets the user a usage-plan key, so the usage plan's throttles apply to it. */
export async function afterKeyCreate(workspaceId: string, userId: string): Promise<void> {
  const user = await getApiUser(workspaceId, userId);
  if (!user || user.usagePlanKeyValue) return;
  await setUsagePlanKey(workspaceId, userId, await createUsagePlanKey(awsSettingsFromEnv(), workspaceId, userId));
}

/** When a user's last active key is revoked, its usage-plan key leaves the plan. */
export async function afterKeyRevoke(user: { workspaceId: string; userId: string; activeKeys: number; usagePlanKeyId?: string }): Promise<void> {
  if (user.activeKeys > 0 || !user.usagePlanKeyId) return;
  await removeUsagePlanKey(awsSettingsFromEnv(), user.usagePlanKeyId);
  await setUsagePlanKey(user.workspaceId, user.userId, null);
}

/** Creates a channel whose access token lives in Secrets Manager. */
export async function createChannelInAws(input: Omit<ChannelCreateInput, 'accessTokenSecret'>) {
  if (!input.accessToken || !input.wabaId)
    throw new OperatorError('Against AWS, --waba-id and --access-token are required (the token goes to Secrets Manager).');
  const id = newId('ch');
  const accessTokenSecret = await putChannelToken(awsSettingsFromEnv(), id, input.accessToken);
  return channelCreate({ ...input, id, accessToken: undefined, accessTokenSecret });
}
