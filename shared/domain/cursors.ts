import { createHmac, timingSafeEqual } from 'node:crypto';
import { InternalError, InvalidInputError } from '../errors';

/**
 * Opaque page cursors, bound to what they page through. A cursor is
 * `<base64url position>.<base64url HMAC-SHA256>`, the MAC taken over the position and
 * its binding (the endpoint, workspace, channel and query, e.g. the contact), with
 * `CURSOR_SIGNING_KEY`. A cursor of another channel, contact or endpoint, or with any
 * byte changed, fails the check: 400 `invalid_parameter` naming `cursor`
 * (reference: DECISIONS "cursors"). The position itself is not secret (it is a time
 * and a message id the caller may see anyway); the MAC only makes it unforgeable.
 *
 * The key: in AWS, CDK generates it (a Secrets Manager secret resolved into the
 * functions that page, `signsCursors` in shared/routes.ts); the local stack and tests
 * use a fixed development key when none is set, and a Lambda without one refuses.
 */

const DEVELOPMENT_KEY = 'workspace-api-local-cursor-key';

function signingKey(): string {
  const key = process.env.CURSOR_SIGNING_KEY;
  if (key) return key;
  if (process.env.AWS_LAMBDA_FUNCTION_NAME) throw new InternalError('Cursors cannot be signed: CURSOR_SIGNING_KEY is not configured.');
  return DEVELOPMENT_KEY;
}

const mac = (binding: string, position: string) => createHmac('sha256', signingKey()).update(`v1\n${binding}\n${position}`).digest();

/** What a cursor is bound to: every part must match when it comes back. */
export type CursorBinding = readonly string[];

const bindingText = (binding: CursorBinding) => binding.map((part) => encodeURIComponent(part)).join('|');

/** Makes the cursor for a position (an opaque string for `nextCursor`). */
export function encodeCursor(binding: CursorBinding, position: string): string {
  const encoded = Buffer.from(position, 'utf8').toString('base64url');
  return `${encoded}.${mac(bindingText(binding), encoded).toString('base64url')}`;
}

/** The position a cursor holds; 400 naming `cursor` when it is malformed, tampered with or bound to something else. */
export function decodeCursor(binding: CursorBinding, cursor: string): string {
  const [encoded, signature, ...rest] = cursor.split('.');
  const invalid = () =>
    new InvalidInputError('Invalid parameter cursor: not a cursor of this query. Pass nextCursor exactly as a previous page of the same query returned it.', 'cursor');
  if (!encoded || !signature || rest.length > 0 || !/^[A-Za-z0-9_-]+$/.test(encoded) || !/^[A-Za-z0-9_-]+$/.test(signature)) throw invalid();
  const expected = mac(bindingText(binding), encoded);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
  return Buffer.from(encoded, 'base64url').toString('utf8');
}
