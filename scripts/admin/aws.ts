import { APIGatewayClient, CreateApiKeyCommand, CreateUsagePlanKeyCommand, DeleteApiKeyCommand, DeleteUsagePlanKeyCommand } from '@aws-sdk/client-api-gateway';
import { CreateSecretCommand, PutSecretValueCommand, SecretsManagerClient, TagResourceCommand } from '@aws-sdk/client-secrets-manager';
import { randomBytes } from 'node:crypto';
import { stageTags } from '../../infra/tags';

/**
 * What the operator CLI does in AWS beside the table: API Gateway usage-plan keys
 * (the authorizer's usageIdentifierKey, one per API user) and channel access tokens
 * in Secrets Manager. Locally none of this runs.
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

let apiGateway: APIGatewayClient | undefined;
let secrets: SecretsManagerClient | undefined;
const gatewayClient = () => (apiGateway ??= new APIGatewayClient({}));
const secretsClient = () => (secrets ??= new SecretsManagerClient({}));

export interface UsagePlanKey {
  apiGatewayKeyId: string;
  value: string;
}

/**
 * Creates an API Gateway API key for an API user and adds it to the usage plan, so
 * the per-method throttles apply to that user. Clients never see this value: the
 * authorizer hands it to API Gateway as usageIdentifierKey.
 */
export async function createUsagePlanKey(settings: AwsSettings, workspaceId: string, userId: string): Promise<UsagePlanKey> {
  const value = randomBytes(30).toString('base64url');
  const created = await gatewayClient().send(
    new CreateApiKeyCommand({
      name: `${workspaceId}/${userId}`,
      value,
      enabled: true,
      description: 'Usage identifier of one API user (set by the operator CLI)',
    }),
  );
  await gatewayClient().send(new CreateUsagePlanKeyCommand({ usagePlanId: settings.usagePlanId, keyId: created.id!, keyType: 'API_KEY' }));
  return { apiGatewayKeyId: created.id!, value };
}

/** Already gone: a repeated revoke (after a failure half-way) finishes instead of failing. */
const ignoreNotFound = (error: unknown) => {
  if ((error as Error).name !== 'NotFoundException') throw error;
};

/**
 * Takes a user's usage-plan key out of the plan and deletes it (the user has no active
 * key left). Deleted, not disabled: API Gateway allows 10,000 API keys per account and
 * region, disabled ones included, and the quota cannot be raised (docs/DEPLOYMENT.md).
 */
export async function removeUsagePlanKey(settings: AwsSettings, apiGatewayKeyId: string): Promise<void> {
  await gatewayClient()
    .send(new DeleteUsagePlanKeyCommand({ usagePlanId: settings.usagePlanId, keyId: apiGatewayKeyId }))
    .catch(ignoreNotFound);
  await gatewayClient()
    .send(new DeleteApiKeyCommand({ apiKey: apiGatewayKeyId }))
    .catch(ignoreNotFound);
}

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
