import { createHmac, timingSafeEqual } from 'node:crypto';
import { config } from '../config';
import { readSecretString } from '../cache/secrets';
import { InternalError, InvalidInputError } from '../errors';

/**
 * Opaque page cursors, bound to the channel and the query they came from: base64url of
 * `{c: channel, q: query, a: position}` and an HMAC-SHA256 over it with the
 * cursor-signing key. A cursor of another channel or query, or one edited in any
 * character, is a 400 naming `cursor` (it never reads another tenant's pages: the
 * channel is the one the key was allowed, and the cursor must name it; without the key
 * no one can make a cursor the service accepts).
 *
 * The keys: in AWS, CDK generates the key (a Secrets Manager secret) and the functions
 * whose route row says `signsCursors` read it at run time (CURSOR_SIGNING_KEY_SECRET_ARN,
 * cached per container for minutes: shared/chat/access-tokens.ts), never from their
 * environment, which lambda:GetFunctionConfiguration shows in plain text. The current
 * version signs; a cursor is accepted under it or under the version a rotation replaced
 * (AWSPREVIOUS), so cursors in flight survive a rotation (docs/DEPLOYMENT.md, "Rotating
 * the cursor-signing key"). The local stack and tests use CURSOR_SIGNING_KEY, else a fixed
 * development key; a Lambda without a key refuses rather than sign with a known one.
 */

const DEVELOPMENT_KEY = 'workspace-api-local-cursor-key';

async function currentKey(): Promise<string> {
  const secret = config.cursorSigningKeySecretArn();
  const key = secret ? await readSecretString(secret) : config.cursorSigningKey();
  if (key) return key;
  if (secret || config.lambdaFunctionName()) throw new InternalError('Cursors cannot be signed: the cursor-signing key is not configured.');
  return DEVELOPMENT_KEY;
}

/** The key a rotation replaced, while the secret keeps it (until the next rotation). */
async function previousKey(): Promise<string | undefined> {
  const secret = config.cursorSigningKeySecretArn();
  return secret ? readSecretString(secret, 'AWSPREVIOUS') : undefined;
}

const mac = (key: string, payload: string) => createHmac('sha256', key).update(`workspace-api-cursor:${payload}`).digest();

export async function encodeCursor(channelId: string, query: string, position: string): Promise<string> {
  const payload = Buffer.from(JSON.stringify({ c: channelId, q: query, a: position })).toString('base64url');
  return `${payload}.${mac(await currentKey(), payload).toString('base64url')}`;
}

/** The position a cursor holds, after checking it belongs to this channel and query. */
export async function decodeCursor(cursor: string, channelId: string, query: string): Promise<string> {
  const refuse = () => new InvalidInputError('cursor is not a cursor this query returned for this channel; start again without it.', 'cursor');
  const [payload, signature, extra] = cursor.split('.');
  if (!payload || !signature || extra !== undefined) throw refuse();
  const given = Buffer.from(signature, 'base64url');
  const signedWith = (key: string | undefined) => {
    if (!key) return false;
    const expected = mac(key, payload);
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
  // The previous key is read only for a cursor the current one did not sign.
  if (!signedWith(await currentKey()) && !signedWith(await previousKey())) throw refuse();
  let parsed: { c?: unknown; q?: unknown; a?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof parsed;
  } catch {
    throw refuse();
  }
  if (parsed.c !== channelId || parsed.q !== query || typeof parsed.a !== 'string') throw refuse();
  return parsed.a;
}
