import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** A random, URL-safe identifier with a readable type prefix, e.g. `ct_8f3k…` (16 characters, 80 bits). */
export function newId(prefix: string): string {
  let out = '';
  for (const byte of randomBytes(16)) out += ALPHABET[byte & 31];
  return `${prefix}_${out}`;
}
