import { CreateSecretCommand, PutSecretValueCommand, SecretsManagerClient, TagResourceCommand } from '@aws-sdk/client-secrets-manager';
import { randomBytes } from 'node:crypto';
import { stageTags } from '../../infra/tags';

/**
 * What the operator CLI does in AWS beside the table: channel access tokens in Secrets
 * Manager, and the settings its API Gateway usage-plan keys need (made in
 * shared/domain/api-keys.ts, as the portal makes them). Locally none of this runs.
 */

export interface AwsSettings {
  /** The stack's UsagePlanId output. */
  usagePlanId: string;
  /** The deployment stage, which names the secrets (workspace-api/<stage>/channel/<id>). */
  stage: string;
}

/** Reads the AWS settings from the environment (USAGE_PLAN_ID, STAGE). */
export function awsSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): AwsSettings {
  const usagePlanId = env.USAGE_PLAN_ID;
  if (!usagePlanId) throw new Error('Against AWS, set USAGE_PLAN_ID to the stack output UsagePlanId (and STAGE, default dev).');
  return { usagePlanId, stage: env.STAGE ?? 'dev' };
}

let secrets: SecretsManagerClient | undefined;
const secretsClient = () => (secrets ??= new SecretsManagerClient({}));

/** The secret name of a channel's access token; the channel item stores only this name. */
export const channelSecretName = (settings: AwsSettings, channelId: string) => `workspace-api/${settings.stage}/channel/${channelId}`;

/**
 * The tags of a channel's secret: the stage's (as on the stack's resources) and the channel.
 * The secret lives outside the stack: deleting the stack leaves it (docs/DEPLOYMENT.md, *Secrets*).
 */
export const channelSecretTags = (settings: AwsSettings, channelId: string) =>
  Object.entries({ ...stageTags(settings.stage), channel: channelId }).map(([Key, Value]) => ({ Key, Value }));

/** Stores (or rotates) a channel's access token in Secrets Manager, tagged, and returns the secret's name. */
export async function putChannelToken(settings: AwsSettings, channelId: string, accessToken: string): Promise<string> {
  const name = channelSecretName(settings, channelId);
  const Tags = channelSecretTags(settings, channelId);
  try {
    await secretsClient().send(
      new CreateSecretCommand({ Name: name, SecretString: accessToken, Description: `WhatsApp Cloud API access token of channel ${channelId}`, Tags }),
    );
  } catch (error) {
    if ((error as Error).name !== 'ResourceExistsException') throw error;
    await secretsClient().send(new PutSecretValueCommand({ SecretId: name, SecretString: accessToken }));
    // A secret made before the CLI tagged them gets its tags on its next rotation.
    await secretsClient().send(new TagResourceCommand({ SecretId: name, Tags }));
  }
  return name;
}

/** The webhook secret the stack creates: `{appSecret, verifyToken}` (output WebhookSecretName). */
export const webhookSecretName = (settings: AwsSettings) => `workspace-api/${settings.stage}/webhook`;

/**
 * Sets the Meta app secret in the webhook secret, keeping the generated verify token
 * (or replacing it when one is given); returns what the Meta app settings need.
 */
export async function configureWebhookSecret(
  settings: AwsSettings,
  appSecret: string,
  verifyToken?: string,
): Promise<{ secretName: string; verifyToken: string }> {
  const { GetSecretValueCommand } = await import('@aws-sdk/client-secrets-manager');
  const secretName = webhookSecretName(settings);
  const current = JSON.parse((await secretsClient().send(new GetSecretValueCommand({ SecretId: secretName }))).SecretString ?? '{}') as {
    verifyToken?: string;
  };
  const token = verifyToken ?? current.verifyToken ?? randomBytes(20).toString('hex');
  await secretsClient().send(new PutSecretValueCommand({ SecretId: secretName, SecretString: JSON.stringify({ appSecret, verifyToken: token }) }));
  return { secretName, verifyToken: token };
}
