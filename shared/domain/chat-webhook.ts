import { timingSafeEqual } from 'node:crypto';
import { verifySignature } from '../chat/signature';
import { parseWebhookPayload } from '../chat/webhook-payload';
import { webhookSecrets } from '../chat/webhook-secrets';
import { logger } from '../observability/logger';
import { handOffInbound, INLINE_EVENTS } from './inbound-drain';
import { processWebhookEvents } from './webhooks';

/**
 * The chat network's webhook, apart from HTTP: Meta's verification handshake and a
 * signed delivery. The signature covers the raw body, so nothing is parsed before it
 * is verified.
 */

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The GET handshake: the challenge to echo when mode and verify token match, else undefined. */
export async function verificationChallenge(query: Record<string, string | undefined>): Promise<string | undefined> {
  const { verifyToken } = await webhookSecrets();
  const valid = query['hub.mode'] === 'subscribe' && verifyToken !== '' && sameText(query['hub.verify_token'] ?? '', verifyToken);
  return valid ? (query['hub.challenge'] ?? '') : undefined;
}

export type WebhookReceipt = { signed: false } | { signed: true; events: number; handedOff: number };

/**
 * A POST delivery: refused (`signed: false`) when X-Hub-Signature-256 is missing or
 * wrong (an empty app secret fails closed); otherwise its events are processed — at
 * once when there are at most {@link INLINE_EVENTS}, else handed off durably as parts
 * for the inbound drain (`handedOff` parts), so the answer never waits for a large
 * delivery (up to 1,000 messages). A failure to process or hand off throws, so the
 * caller answers 5xx and the chat network delivers again (processing is idempotent).
 */
export async function receiveDelivery(raw: Buffer, signature: string | undefined, requestId: string): Promise<WebhookReceipt> {
  const { appSecret } = await webhookSecrets();
  if (appSecret === '' || !verifySignature(raw, signature, appSecret)) return { signed: false };
  // What cannot be used (an absurd timestamp, an overlong id) is dropped or clamped with a warning, never a 5xx.
  const events = parseWebhookPayload(raw, { warn: (message, fields) => logger.warn(message, { requestId, ...fields }) });
  if (events.length > INLINE_EVENTS) return { signed: true, events: events.length, handedOff: await handOffInbound(events) };
  await processWebhookEvents(events);
  return { signed: true, events: events.length, handedOff: 0 };
}
