import { createHash, randomInt } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { clock } from '../../shared/clock';
import { bearerToken, sendJson, sendMeta } from './sandbox-http';
import type { SandboxState } from './sandbox-state';
import { SandboxInputError } from './sandbox-types';

/**
 * Media as the Cloud API serves it: `GET /{version}/{media-id}` with the owning number's
 * token answers `{url, mime_type, sha256, file_size, id}`; the URL (Meta's lookaside host,
 * here `/whatsapp_business/attachments/?mid=`) needs the same token again; `DELETE
 * /{version}/{media-id}` removes it. Media reach the sandbox through the control API
 * (`POST /_sandbox/media`: what a customer's phone uploads before an inbound message).
 */

export interface SandboxMedia {
  phoneNumberId: string;
  mimeType: string;
  bytes: Buffer;
  sha256: string;
}

export const ATTACHMENTS_PATH = '/whatsapp_business/attachments/';

/** Holds bytes for a business number; returns the media id an inbound message names. */
export function holdMedia(state: SandboxState, phoneNumberId: string, mimeType: string, base64: string): { id: string } {
  if (!state.numbers.has(phoneNumberId)) throw new SandboxInputError(`Unknown phone number id ${phoneNumberId}: register it first.`, 404);
  if (!/^[a-z]+\/[\w.+-]+$/.test(mimeType)) throw new SandboxInputError('mimeType must be a MIME type such as image/jpeg.');
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length === 0) throw new SandboxInputError('data must be the base64 of at least one byte.');
  // Meta's media ids are 15–16 digit numbers.
  const id = String(randomInt(1e14, 2 ** 48 - 1)).padStart(15, '1');
  state.media.set(id, { phoneNumberId, mimeType, bytes, sha256: createHash('sha256').update(bytes).digest('hex') });
  return { id };
}

/** `GET` or `DELETE /{version}/{media-id}`; false when the id names no media (the caller answers as for any unknown object). */
export function handleMediaObject(state: SandboxState, req: IncomingMessage, res: ServerResponse, id: string): boolean {
  const media = state.media.get(id);
  if (!media || (req.method !== 'GET' && req.method !== 'DELETE')) return false;
  if (bearerToken(req) !== state.numbers.get(media.phoneNumberId)?.accessToken) {
    sendMeta(res, { httpStatus: 401, code: 190, message: `Error validating access token: the token does not grant access to Object with ID '${id}'.` });
    return true;
  }
  if (req.method === 'DELETE') {
    state.media.delete(id);
    sendJson(res, 200, { success: true });
    return true;
  }
  const url = new URL(ATTACHMENTS_PATH, state.url);
  url.searchParams.set('mid', id);
  url.searchParams.set('ext', String(Math.floor(clock.now() / 1000)));
  sendJson(res, 200, {
    messaging_product: 'whatsapp',
    url: url.toString(),
    mime_type: media.mimeType,
    sha256: media.sha256,
    file_size: media.bytes.length,
    id,
  });
  return true;
}

/** The download: the bytes, for the owning number's token only. */
export function handleAttachment(state: SandboxState, req: IncomingMessage, res: ServerResponse, requestUrl: URL): void {
  const media = state.media.get(requestUrl.searchParams.get('mid') ?? '');
  if (!media) return sendJson(res, 404, { error: 'Not found' });
  if (bearerToken(req) !== state.numbers.get(media.phoneNumberId)?.accessToken)
    return sendMeta(res, { httpStatus: 401, code: 190, message: 'Invalid OAuth access token - Cannot parse access token' });
  res.writeHead(200, { 'Content-Type': media.mimeType, 'Content-Length': String(media.bytes.length) });
  res.end(media.bytes);
}
