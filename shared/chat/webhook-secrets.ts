import { readSecretString } from './access-tokens';

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
  const secretId = process.env.WHATSAPP_APP_SECRET_NAME || process.env.WEBHOOK_SECRET_ARN;
  if (!secretId) return { appSecret: process.env.WHATSAPP_APP_SECRET ?? '', verifyToken: process.env.WHATSAPP_VERIFY_TOKEN ?? '' };
  const parsed = JSON.parse(await readSecretString(secretId)) as Partial<WebhookSecrets>;
  return { appSecret: String(parsed.appSecret ?? ''), verifyToken: String(parsed.verifyToken ?? '') };
}
