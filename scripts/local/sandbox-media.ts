import { createHash, randomInt } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { clock } from '../../shared/clock';
import { mediaRefusal, type MediaMessageType } from '../../shared/chat/media-types';
import { metaError } from './sandbox-catalog';
import { bearerToken, readBodyBytes, sendJson, sendMeta } from './sandbox-http';
import type { SandboxState } from './sandbox-state';
import { SandboxInputError } from './sandbox-types';

/**
 * Media as the Cloud API serves it: `GET /{version}/{media-id}` with the owning number's
 * token answers `{url, mime_type, sha256, file_size, id}`; the URL (Meta's lookaside host,
 * here `/whatsapp_business/attachments/?mid=`) needs the same token again; `DELETE
 * /{version}/{media-id}` removes it. Media reach the sandbox through the control API
 * (`POST /_sandbox/media`: what a customer's phone uploads before an inbound message), and
 * through the business's own upload, `POST /{version}/{phone-number-id}/media` (multipart:
 * `messaging_product`, `type`, `file`) with the number's token → `{ id }`.
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
  return { id: keepMedia(state, { phoneNumberId, mimeType, bytes, sha256: createHash('sha256').update(bytes).digest('hex') }) };
}

function keepMedia(state: SandboxState, media: SandboxMedia): string {
  // Meta's media ids are 15–16 digit numbers.
  const id = String(randomInt(1e14, 2 ** 48 - 1)).padStart(15, '1');
  state.media.set(id, media);
  return id;
}

const UPLOAD_TYPES: readonly MediaMessageType[] = ['image', 'video', 'audio', 'document', 'sticker'];

/** The business's upload: refused as Meta does (190 for another number's token, 100 for a missing field, 131053 for a type or size WhatsApp does not take). */
export async function handleUpload(state: SandboxState, req: IncomingMessage, res: ServerResponse, phoneNumberId: string): Promise<void> {
  const raw = await readBodyBytes(req);
  const number = state.numbers.get(phoneNumberId);
  if (!number || bearerToken(req) !== number.accessToken) {
    return sendMeta(res, {
      httpStatus: 401,
      code: 190,
      message: `Error validating access token: the token does not grant access to Object with ID '${phoneNumberId}'.`,
    });
  }
  const form = await multipartForm(raw, req.headers['content-type']);
  if (!form) return sendMeta(res, metaError(100, 'The upload must be multipart/form-data.'));
  if (form.get('messaging_product') !== 'whatsapp') return sendMeta(res, metaError(100, "Param messaging_product must be 'whatsapp'."));
  const file = form.get('file');
  if (!(file instanceof Blob) || file.size === 0) return sendMeta(res, metaError(131008, 'The parameter file is required.'));
  const mimeType = String(form.get('type') ?? file.type);
  const bytes = Buffer.from(await file.arrayBuffer());
  const refusals = UPLOAD_TYPES.map((type) => mediaRefusal(type, mimeType, bytes.length));
  if (refusals.every((refusal) => refusal !== undefined))
    return sendMeta(res, metaError(131053, `Unsupported or too large media: ${mimeType}, ${bytes.length} bytes.`));
  const id = keepMedia(state, { phoneNumberId, mimeType, bytes, sha256: createHash('sha256').update(bytes).digest('hex') });
  sendJson(res, 200, { id });
}

async function multipartForm(raw: Buffer, contentType: string | undefined): Promise<FormData | undefined> {
  if (!contentType?.toLowerCase().startsWith('multipart/form-data')) return undefined;
  try {
    return await new Response(raw, { headers: { 'content-type': contentType } }).formData();
  } catch {
    return undefined;
  }
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
