import { config } from '../config';
import { readSecretString } from '../cache/secrets';

/**
 * The webhook's app secret (signs deliveries) and verify token (the GET handshake).
 * Locally from WHATSAPP_APP_SECRET / WHATSAPP_VERIFY_TOKEN; in AWS from one JSON
 * secret `{appSecret, verifyToken}` named by WHATSAPP_APP_SECRET_NAME (or the stack's
 * WEBHOOK_SECRET_ARN), cached per warm container with the access tokens (the secret
 * cache of access-tokens.ts: 5 minutes, so a rotation is picked up without a deploy).
 * An empty app secret fails closed: no signature matches.
 */
export interface WebhookSecrets {
  appSecret: string;
  verifyToken: string;
}

export async function webhookSecrets(): Promise<WebhookSecrets> {
  const secretId = config.whatsappAppSecretName() ?? config.webhookSecretArn();
  if (!secretId) return { appSecret: config.whatsappAppSecret(), verifyToken: config.whatsappVerifyToken() };
  const parsed = JSON.parse(await readSecretString(secretId)) as Partial<WebhookSecrets>;
  return { appSecret: String(parsed.appSecret ?? ''), verifyToken: String(parsed.verifyToken ?? '') };
}
