import { createHmac, timingSafeEqual } from 'node:crypto';
import { config } from '../config';
import { InternalError, InvalidInputError } from '../errors';

/**
 * Opaque page cursors, bound to the channel and the query they came from: base64url of
 * `{c: channel, q: query, a: position}` and an HMAC-SHA256 over it with
 * `CURSOR_SIGNING_KEY`. A cursor of another channel or query, or one edited in any
 * character, is a 400 naming `cursor` (it never reads another tenant's pages: the
 * channel is the one the key was allowed, and the cursor must name it; without the key
 * no one can make a cursor the service accepts).
 *
 * The key: in AWS, CDK generates it (a Secrets Manager secret resolved at deploy time
 * into the functions whose route row says `signsCursors`); the local stack and tests use
 * a fixed development key when none is set, and a Lambda without one refuses rather
 * than sign with a known key. Replacing the key only invalidates cursors in flight.
 */

const DEVELOPMENT_KEY = 'workspace-api-local-cursor-key';

function signingKey(): string {
  const key = config.cursorSigningKey();
  if (key) return key;
  if (config.lambdaFunctionName()) throw new InternalError('Cursors cannot be signed: CURSOR_SIGNING_KEY is not configured.');
  return DEVELOPMENT_KEY;
}

const check = (payload: string) => createHmac('sha256', signingKey()).update(`workspace-api-cursor:${payload}`).digest();

export function encodeCursor(channelId: string, query: string, position: string): string {
  const payload = Buffer.from(JSON.stringify({ c: channelId, q: query, a: position })).toString('base64url');
  return `${payload}.${check(payload).toString('base64url')}`;
}

/** The position a cursor holds, after checking it belongs to this channel and query. */
export function decodeCursor(cursor: string, channelId: string, query: string): string {
  const refuse = () => new InvalidInputError('cursor is not a cursor this query returned for this channel; start again without it.', 'cursor');
  const [payload, mac, extra] = cursor.split('.');
  if (!payload || !mac || extra !== undefined) throw refuse();
  const expected = check(payload);
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refuse();
  let parsed: { c?: unknown; q?: unknown; a?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof parsed;
  } catch {
    throw refuse();
  }
  if (parsed.c !== channelId || parsed.q !== query || typeof parsed.a !== 'string') throw refuse();
  return parsed.a;
}
