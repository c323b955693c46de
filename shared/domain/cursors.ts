import { createHash } from 'node:crypto';
import { InvalidInputError } from '../errors';

/**
 * Opaque page cursors, bound to the channel and the query they came from: base64url of
 * `{c: channel, q: query, a: position}` and a check over it. A cursor of another channel
 * or query, or one edited by hand, is a 400 naming `cursor` (it never reads another
 * tenant's pages: the channel is the one the key was allowed, and the cursor must name it).
 */

const check = (payload: string) => createHash('sha256').update(`workspace-api-cursor:${payload}`).digest('base64url').slice(0, 16);

export function encodeCursor(channelId: string, query: string, position: string): string {
  const payload = Buffer.from(JSON.stringify({ c: channelId, q: query, a: position })).toString('base64url');
  return `${payload}.${check(payload)}`;
}

/** The position a cursor holds, after checking it belongs to this channel and query. */
export function decodeCursor(cursor: string, channelId: string, query: string): string {
  const refuse = () => new InvalidInputError('cursor is not a cursor this query returned for this channel; start again without it.', 'cursor');
  const [payload, mac, extra] = cursor.split('.');
  if (!payload || !mac || extra !== undefined || check(payload) !== mac) throw refuse();
  let parsed: { c?: unknown; q?: unknown; a?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof parsed;
  } catch {
    throw refuse();
  }
  if (parsed.c !== channelId || parsed.q !== query || typeof parsed.a !== 'string') throw refuse();
  return parsed.a;
}
