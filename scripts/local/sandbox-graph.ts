import type { IncomingMessage, ServerResponse } from 'node:http';
import { clock } from '../../shared/clock';
import { metaError, templatesForWaba, type MetaErrorSpec } from './sandbox-catalog';
import { handleMediaObject, handleUpload } from './sandbox-media';
import { bearerToken, newWamid, parseJson, readBody, sendJson, sendMeta } from './sandbox-http';
import { takeFault, track, windowKey, type PendingFault, type SandboxState } from './sandbox-state';
import type { SandboxPhoneNumber } from './sandbox-types';
import { validateSend, type SendKind } from './sandbox-validate';
import { reportStatuses, type AcceptedMessage } from './sandbox-webhooks';

/**
 * The Graph API: `POST /{version}/{phone-number-id}/messages` (sending, then the status
 * webhooks) and `GET /{version}/{waba-id}/message_templates` (cursor-paged), each
 * answered by an injected fault first when one is pending.
 */

const SESSION_WINDOW_MS = 24 * 60 * 60 * 1000;
const DEFAULT_TEMPLATE_PAGE_SIZE = 25;

export async function handleGraph(state: SandboxState, req: IncomingMessage, res: ServerResponse, segments: string[], requestUrl: URL): Promise<void> {
  const [version, id, edge] = segments;
  if (segments.length === 2 && version === state.settings.graphVersion) {
    await readBody(req);
    if (handleMediaObject(state, req, res, id)) return;
  }
  if (segments.length === 3 && version === state.settings.graphVersion && req.method === 'POST' && edge === 'media') {
    state.requests.push({ method: 'POST', path: requestUrl.pathname, at: clock.now() });
    return handleUpload(state, req, res, id);
  }
  const route = segments.length === 3 && version === state.settings.graphVersion ? graphRoute(req.method, edge) : undefined;
  if (!route) {
    await readBody(req);
    return sendMeta(res, { httpStatus: 400, code: 100, message: `Unsupported ${req.method} request to ${requestUrl.pathname}.` });
  }
  state.requests.push({ method: req.method ?? '', path: requestUrl.pathname, at: clock.now() });
  const raw = await readBody(req);
  const fault = takeFault(state, route);
  if (fault) return answerFault(res, fault);
  if (route === 'templates') return listTemplates(state, req, res, id, requestUrl);
  return sendMessage(state, req, res, id, raw);
}

function graphRoute(method: string | undefined, edge: string | undefined): 'messages' | 'templates' | undefined {
  if (method === 'POST' && edge === 'messages') return 'messages';
  if (method === 'GET' && edge === 'message_templates') return 'templates';
  return undefined;
}

function sendMessage(state: SandboxState, req: IncomingMessage, res: ServerResponse, phoneNumberId: string, raw: string): void {
  const number = state.numbers.get(phoneNumberId);
  const token = bearerToken(req);
  if (!number || number.accessToken !== token) return sendMeta(res, accessRefusal(state, token, `Object with ID '${phoneNumberId}'`));
  const body = parseJson(raw);
  if (body === undefined) return sendMeta(res, metaError(100, 'The request body is not valid JSON.'));
  if ((body as { status?: unknown }).status !== undefined) return markRead(state, res, phoneNumberId, body as Record<string, unknown>);
  const conversation = (id: string) => {
    const known = state.messages.get(id);
    return known?.phoneNumberId === phoneNumberId ? known.waId : undefined;
  };
  const holdsMedia = (mediaId: string) => state.media.get(mediaId)?.phoneNumberId === phoneNumberId;
  const check = validateSend(body, templatesForWaba(number.wabaId), { conversation, holdsMedia });
  if (!check.ok) return sendMeta(res, check.error);
  const chatmid = newWamid();
  state.sent.push({ phoneNumberId, body, chatmid, at: clock.now() });
  state.messages.set(chatmid, { phoneNumberId, waId: check.waId, direction: 'outbound' });
  sendJson(res, 200, {
    messaging_product: 'whatsapp',
    contacts: [{ input: (body as { to: string }).to, wa_id: check.waId }],
    messages: [{ id: chatmid, message_status: 'accepted' }],
  });
  const message: AcceptedMessage = {
    number,
    chatmid,
    waId: check.waId,
    category: check.template ? check.template.category.toLowerCase() : 'service',
    failureCode: failureFor(state, number, check.waId, check.kind),
  };
  track(state, reportStatuses(state, message));
}

/**
 * `{ messaging_product, status: "read", message_id, typing_indicator? }`: marks a message
 * the number received read (answers `{ success: true }`); Meta refuses any other id with 100.
 */
function markRead(state: SandboxState, res: ServerResponse, phoneNumberId: string, body: Record<string, unknown>): void {
  if (body.messaging_product !== 'whatsapp') return sendMeta(res, metaError(100, "Param messaging_product must be 'whatsapp'."));
  if (body.status !== 'read') return sendMeta(res, metaError(100, "Param status must be 'read'."));
  const chatmid = body.message_id;
  if (typeof chatmid !== 'string' || chatmid === '') return sendMeta(res, metaError(131008, 'The parameter message_id is required.'));
  const known = state.messages.get(chatmid);
  if (known?.phoneNumberId !== phoneNumberId || known.direction !== 'inbound') {
    return sendMeta(res, metaError(100, `Param message_id ${chatmid} is not a message this number received.`));
  }
  const typing = body.typing_indicator as { type?: unknown } | undefined;
  if (typing !== undefined && typing?.type !== 'text') return sendMeta(res, metaError(100, "Param typing_indicator['type'] must be 'text'."));
  state.reads.push({ phoneNumberId, chatmid, typingIndicator: typing !== undefined, at: clock.now() });
  sendJson(res, 200, { success: true });
}

/** Decided at send time, as Meta does: an inbound arriving later does not rescue the message. */
function failureFor(state: SandboxState, number: SandboxPhoneNumber, waId: string, kind: SendKind): number | undefined {
  const marked = state.failingNumbers.get(waId);
  if (marked !== undefined) return marked;
  if (kind === 'template') return undefined;
  const last = state.lastInboundAt.get(windowKey(number.phoneNumberId, waId));
  return last !== undefined && clock.now() - last <= SESSION_WINDOW_MS ? undefined : 131047;
}

function listTemplates(state: SandboxState, req: IncomingMessage, res: ServerResponse, wabaId: string, requestUrl: URL): void {
  const token = bearerToken(req);
  const wabaNumbers = [...state.numbers.values()].filter((number) => number.wabaId === wabaId);
  if (!wabaNumbers.some((number) => number.accessToken === token)) return sendMeta(res, accessRefusal(state, token, `Object with ID '${wabaId}'`));
  const limit = requestUrl.searchParams.has('limit') ? Number(requestUrl.searchParams.get('limit')) : DEFAULT_TEMPLATE_PAGE_SIZE;
  if (!Number.isInteger(limit) || limit < 1) return sendMeta(res, metaError(100, 'Param limit must be a positive integer.'));
  const after = requestUrl.searchParams.get('after');
  const start = after === null ? 0 : decodeCursor(after);
  if (start === undefined) return sendMeta(res, metaError(100, 'Param after is not a valid cursor.'));
  const all = templatesForWaba(wabaId);
  const page = all.slice(start, start + limit);
  sendJson(res, 200, { data: page, ...templatePaging(state, requestUrl, start, page.length, all.length) });
}

/** Graph's cursor paging: cursors mark where the page starts and ends, `next` is there only when more follow. */
function templatePaging(state: SandboxState, requestUrl: URL, start: number, count: number, total: number): Record<string, unknown> {
  if (count === 0) return {};
  const after = encodeCursor(start + count);
  const paging: Record<string, unknown> = { cursors: { before: encodeCursor(start), after } };
  if (start + count < total) {
    const next = new URL(requestUrl.pathname + requestUrl.search, state.url);
    next.searchParams.set('after', after);
    paging.next = next.toString();
  }
  return { paging };
}

function encodeCursor(index: number): string {
  return Buffer.from(String(index)).toString('base64url');
}

function decodeCursor(cursor: string): number | undefined {
  const index = Number(Buffer.from(cursor, 'base64url').toString());
  return Number.isInteger(index) && index >= 0 ? index : undefined;
}

/**
 * A channel's token serves only its own number (and its WABA's templates):
 * anything else is Meta's invalid-token error, worded to help whoever debugs it.
 */
function accessRefusal(state: SandboxState, token: string | undefined, object: string): MetaErrorSpec {
  const known = token !== undefined && [...state.numbers.values()].some((number) => number.accessToken === token);
  const message = known
    ? `Error validating access token: the token does not grant access to ${object}.`
    : 'Invalid OAuth access token - Cannot parse access token';
  return { httpStatus: 401, code: 190, message };
}

function answerFault(res: ServerResponse, fault: PendingFault): void {
  switch (fault.kind) {
    case 'timeout':
      // Never answered: the client's timeout ends it, or close() destroys the socket.
      return;
    case 'malformed':
      return sendJson(res, 200, { messaging_product: 'whatsapp' });
    case '5xx':
      return sendMeta(res, { ...metaError(fault.code ?? 131000), httpStatus: 500 });
    case '429': {
      const retryAfter = String(fault.retryAfterSeconds ?? 1);
      return sendMeta(res, { ...metaError(fault.code ?? 130429), httpStatus: 429 }, { 'Retry-After': retryAfter });
    }
    case 'meta_error':
      return sendMeta(res, metaError(fault.code ?? 131000));
  }
}
