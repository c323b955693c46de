import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const API_KEY_PREFIX = 'wsk_';
/** Characters after the prefix: 32 random bytes in base64url. */
export const API_KEY_BODY_LENGTH = 43;
const KEY_SHAPE = new RegExp(`^${API_KEY_PREFIX}[A-Za-z0-9_-]{${API_KEY_BODY_LENGTH}}$`);

/** A new random API key (256 bits), prefixed so leaked keys are easy to recognize and scan for. */
export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(32).toString('base64url');
}

/** Keys are stored only as this SHA-256 hash (hex). */
export function hashApiKey(apiKey: string): string {
  return createHash('sha256').update(apiKey, 'utf8').digest('hex');
}

/** Cheap shape check so obviously malformed keys cost no table read. */
export function looksLikeApiKey(value: string): boolean {
  return KEY_SHAPE.test(value);
}

/** Constant-time equality of two hex hashes. */
export function hashesEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
