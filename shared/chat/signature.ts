import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * `X-Hub-Signature-256` for chat-network webhooks: HMAC-SHA256 of the raw request
 * bytes keyed with the app secret. The raw bytes matter: re-serialised JSON can
 * differ in whitespace or key order, and then no signature would ever match.
 */

const PREFIX = 'sha256=';
const HEX_DIGEST = /^[0-9a-f]{64}$/i;

/** Signs a webhook body as Meta does: `sha256=<hex>`. */
export function signPayload(rawBody: string | Buffer, appSecret: string): string {
  return PREFIX + createHmac('sha256', appSecret).update(rawBody).digest('hex');
}

/**
 * Checks a `X-Hub-Signature-256` header against the raw body in constant time.
 * Any missing, malformed or differently sized header is simply false, so callers
 * have one branch to take.
 */
export function verifySignature(rawBody: string | Buffer, header: string | null | undefined, appSecret: string): boolean {
  if (typeof header !== 'string' || !header.startsWith(PREFIX)) return false;
  const given = header.slice(PREFIX.length);
  if (!HEX_DIGEST.test(given)) return false;
  const expected = createHmac('sha256', appSecret).update(rawBody).digest();
  const received = Buffer.from(given, 'hex');
  // timingSafeEqual throws on a length mismatch; the regex above already pins the length.
  return received.length === expected.length && timingSafeEqual(received, expected);
}
