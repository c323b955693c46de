import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com/): the body is signed
 * as `<webhook-id>.<webhook-timestamp>.<body>` with HMAC-SHA256 under the secret's
 * decoded bytes, sent as `v1,<base64>`; during a rotation every valid secret signs and
 * the signatures are space-separated, so a receiver holding either secret verifies.
 * A few lines of node:crypto instead of the `standardwebhooks` package, which the tests
 * use to verify what this writes (test/events/signing.test.ts).
 */

const SECRET_PREFIX = 'whsec_';

/** A new subscription secret: `whsec_` and base64 of 32 random bytes (the convention asks for 24 to 64). */
export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

function secretBytes(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

/** The `webhook-signature` header value for one delivery attempt, one `v1,` entry per secret. */
export function signDelivery(secrets: readonly string[], webhookId: string, timestampSeconds: number, body: string): string {
  const signed = `${webhookId}.${timestampSeconds}.${body}`;
  return secrets.map((secret) => `v1,${createHmac('sha256', secretBytes(secret)).update(signed).digest('base64')}`).join(' ');
}

/** The Standard Webhooks headers of one attempt (the id is the event id: the same on every attempt). */
export function deliveryHeaders(secrets: readonly string[], webhookId: string, timestampSeconds: number, body: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    'webhook-id': webhookId,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': signDelivery(secrets, webhookId, timestampSeconds, body),
  };
}
