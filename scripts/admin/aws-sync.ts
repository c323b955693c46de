import { newId } from '../../shared/ids';
import { awsSettingsFromEnv, putChannelToken } from './aws';
import { channelCreate, OperatorError, type ChannelCreateInput } from './commands';

/**
 * What the operator CLI adds when it runs against AWS: it puts channel tokens in Secrets
 * Manager (usage-plan keys follow the API keys in shared/domain/api-keys.ts). Locally none
 * of this runs.
 */

/** Creates a channel whose access token lives in Secrets Manager. */
export async function createChannelInAws(input: Omit<ChannelCreateInput, 'accessTokenSecret'>) {
  if (!input.accessToken || !input.wabaId)
    throw new OperatorError('Against AWS, --waba-id and --access-token are required (the token goes to Secrets Manager).');
  const id = newId('ch');
  const accessTokenSecret = await putChannelToken(awsSettingsFromEnv(), id, input.accessToken);
  return channelCreate({ ...input, id, accessToken: undefined, accessTokenSecret });
}
