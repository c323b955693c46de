import { UpstreamError, InvalidInputError, AppError, NotFoundError, UnavailableError } from '../errors';
import {
  exchangeIdempotent,
  exchangeWithoutRepeat,
  OutboundDeadlineError,
  parseRetryAfter,
  retryPolicy,
  type Exchange,
  type RetryOptions,
} from '../outbound/http-exchange';
import { buildReadPayload, type SendPayload } from './payloads';
import type { GraphTemplate, GraphTemplateComponent } from './templates';

export { buildMediaPayload, buildTemplatePayload, buildTextPayload } from './payloads';
export type { MediaObject, MediaType, SendPayload, TemplateHeaderInput, TemplateInput } from './payloads';

/**
 * A thin WhatsApp Cloud API (Graph API) client on the outbound HTTP exchange
 * (shared/outbound/http-exchange.ts), which owns timeouts, retries and the rule that
 * a message is never sent twice: a send is retried only when it surely never reached
 * the chat network or the network answered 429; after a timeout or a 5xx the caller
 * gets outcome `unknown` instead of a resend. Reads retry freely. This file keeps
 * only what is Graph API: URLs, payloads, Meta's error codes and their answers.
 */

/**
 * - `rejected`: the chat network answered and refused; nothing was sent.
 * - `unknown`: the request may have been processed (timeout, 5xx, garbled success).
 * - `not_sent`: the request never reached the chat network.
 */
export type ChatOutcome = 'rejected' | 'unknown' | 'not_sent';

/** Which call failed; an unknown outcome means something else for a read than for a send. */
export type ChatOperation = 'send' | 'list_templates' | 'mark_read' | 'media';

export interface ChatNetworkErrorInit {
  outcome: ChatOutcome;
  operation: ChatOperation;
  metaCode?: number;
  httpStatus?: number;
  details?: string;
  retryAfterSeconds?: number;
  cause?: unknown;
}

/** A failed chat-network call; `toCallerError` turns it into the API's answer. */
export class ChatNetworkError extends Error {
  readonly outcome: ChatOutcome;
  readonly operation: ChatOperation;
  readonly metaCode?: number;
  readonly httpStatus?: number;
  readonly details?: string;
  readonly retryAfterSeconds?: number;

  constructor(message: string, init: ChatNetworkErrorInit) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ChatNetworkError';
    this.outcome = init.outcome;
    this.operation = init.operation;
    this.metaCode = init.metaCode;
    this.httpStatus = init.httpStatus;
    this.details = init.details;
    this.retryAfterSeconds = init.retryAfterSeconds;
  }
}

/** The Graph API base and the retry rules (timeouts, attempts, backoff, the 429 wait cap: see RetryOptions). */
export interface GraphClientOptions extends RetryOptions {
  /** Graph API base including the version, e.g. `https://graph.facebook.com/v21.0`. */
  baseUrl: string;
}

export interface SendResult {
  /** The chat network's message id (`wamid.…`). */
  chatmid: string;
  /** The recipient's canonical WhatsApp id, which may differ from the number sent to. */
  waId: string;
  messageStatus: string;
}

export interface ListTemplatesOptions {
  /** Page size asked of the Graph API (`limit`). */
  pageSize?: number;
}

export interface GraphClient {
  sendMessage(phoneNumberId: string, accessToken: string, payload: SendPayload): Promise<SendResult>;
  listTemplates(wabaId: string, accessToken: string, options?: ListTemplatesOptions): Promise<GraphTemplate[]>;
  /** Marks an inbound message read (the sender sees blue ticks), optionally with the typing indicator. */
  markRead(phoneNumberId: string, accessToken: string, chatmid: string, options?: { typingIndicator?: boolean }): Promise<void>;
  /** An inbound media's bytes: `GET /{media-id}` for its URL, then that URL, both with the channel's token; at most `maxBytes`. */
  downloadMedia(mediaId: string, accessToken: string, maxBytes: number): Promise<DownloadedMedia>;
  /** Uploads bytes for the number's outbound messages (`POST /{phone-number-id}/media`, multipart); answers the media id. */
  uploadMedia(phoneNumberId: string, accessToken: string, media: MediaUpload): Promise<string>;
}

export interface MediaUpload {
  bytes: Buffer;
  mimeType: string;
  filename: string;
}

export interface DownloadedMedia {
  bytes: Buffer;
  mimeType: string;
  /** What the chat network says of the bytes (hex SHA-256), when it says. */
  sha256?: string;
}

/** Media larger than a download may take: refused, never retried. */
export class MediaTooLargeError extends Error {
  constructor(readonly size: number) {
    super(`The media is larger than its type allows (${size} bytes or more).`);
    this.name = 'MediaTooLargeError';
  }
}

/** How long a throttled caller should wait when the chat network does not say: Meta's pair limit is about one message per 6 s. */
const DEFAULT_THROTTLE_RETRY_AFTER_SECONDS = 6;
const THROTTLE_CODES = new Set([130429, 131056]);
/** Stops a paging loop on a chat network that keeps answering `next`. */
const MAX_TEMPLATE_PAGES = 100;

interface MetaError {
  code?: number;
  message?: string;
  details?: string;
}

/** Creates a client bound to one Graph API base URL. */
/** The media's bytes from the chat network's short-lived URL (it wants the token too), at most `maxBytes`. */
async function downloadFrom(url: URL, accessToken: string, maxBytes: number, timeoutMs: number): Promise<{ bytes: Buffer; contentType: string | null }> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { Authorization: `Bearer ${accessToken}` }, signal: AbortSignal.timeout(timeoutMs) });
  } catch (cause) {
    throw new ChatNetworkError('The media download did not complete.', { outcome: 'unknown', operation: 'media', cause });
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new ChatNetworkError(`The media download answered HTTP ${response.status}.`, {
      outcome: 'rejected',
      operation: 'media',
      httpStatus: response.status,
    });
  }
  return { bytes: await readAtMost(response, maxBytes), contentType: response.headers.get('content-type') };
}

/** The Cloud API's media upload form: the product, the type and the file. */
function uploadForm(media: MediaUpload): FormData {
  const form = new FormData();
  form.set('messaging_product', 'whatsapp');
  form.set('type', media.mimeType);
  form.set('file', new Blob([media.bytes], { type: media.mimeType }), media.filename);
  return form;
}

export function createGraphClient(options: GraphClientOptions): GraphClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const policy = retryPolicy(options);

  async function sendMessage(phoneNumberId: string, accessToken: string, payload: SendPayload): Promise<SendResult> {
    const url = `${baseUrl}/${encodeURIComponent(phoneNumberId)}/messages`;
    const exchange = await exchangeWithoutRepeat(url, { method: 'POST', headers: jsonHeaders(accessToken), body: JSON.stringify(payload) }, policy);
    if (exchange.kind === 'not_reached') throw notReachedError('send', exchange.cause);
    if (exchange.kind === 'lost') throw lostError('send', exchange);
    if (exchange.status === 429) throw rejectedError('send', exchange);
    // A 5xx may come from a proxy after the message went out: never resend.
    if (exchange.status >= 500) throw serverError('send', exchange);
    if (exchange.status >= 400) throw rejectedError('send', exchange);
    return parseSendResult(exchange.body, exchange.status);
  }

  /** Retried freely: marking a message read twice does no harm. */
  async function markRead(phoneNumberId: string, accessToken: string, chatmid: string, readOptions: { typingIndicator?: boolean } = {}): Promise<void> {
    const url = `${baseUrl}/${encodeURIComponent(phoneNumberId)}/messages`;
    const body = JSON.stringify(buildReadPayload(chatmid, readOptions.typingIndicator));
    const exchange = await exchangeIdempotent(url, { method: 'POST', headers: jsonHeaders(accessToken), body }, policy);
    if (exchange.kind === 'answered' && exchange.status < 400) return;
    if (exchange.kind === 'answered' && exchange.status < 500 && exchange.status !== 429) throw rejectedError('mark_read', exchange);
    throw readFailure(exchange, 'mark_read');
  }

  /** GET with free retries: reading twice does no harm. */
  async function read(url: string, accessToken: string, operation: ChatOperation = 'list_templates'): Promise<unknown> {
    const exchange = await exchangeIdempotent(url, { method: 'GET', headers: { Authorization: `Bearer ${accessToken}` } }, policy);
    if (exchange.kind === 'answered' && exchange.status < 400) return exchange.body;
    if (exchange.kind === 'answered' && exchange.status < 500 && exchange.status !== 429) throw rejectedError(operation, exchange);
    throw readFailure(exchange, operation);
  }

  async function downloadMedia(mediaId: string, accessToken: string, maxBytes: number): Promise<DownloadedMedia> {
    const info = (await read(`${baseUrl}/${encodeURIComponent(mediaId)}`, accessToken, 'media')) as Record<string, unknown> | null;
    const url = typeof info?.url === 'string' ? safeUrl(info.url) : undefined;
    if (!url || (url.protocol !== 'https:' && url.origin !== new URL(baseUrl).origin)) throw malformedError('media', 'the media has no https URL');
    if (typeof info?.file_size === 'number' && info.file_size > maxBytes) throw new MediaTooLargeError(info.file_size);
    const { bytes, contentType } = await downloadFrom(url, accessToken, maxBytes, policy.timeoutMs);
    const mimeType = typeof info?.mime_type === 'string' ? info.mime_type : (contentType ?? 'application/octet-stream');
    return { bytes, mimeType, sha256: typeof info?.sha256 === 'string' ? info.sha256 : undefined };
  }

  /**
   * Retried like a read: a repeated upload leaves at most an unused media object on the
   * chat network (it deletes them after 30 days), never a message sent twice.
   */
  async function uploadMedia(phoneNumberId: string, accessToken: string, media: MediaUpload): Promise<string> {
    const url = `${baseUrl}/${encodeURIComponent(phoneNumberId)}/media`;
    const exchange = await exchangeIdempotent(url, { method: 'POST', headers: { Authorization: `Bearer ${accessToken}` }, body: uploadForm(media) }, policy);
    if (exchange.kind === 'answered' && exchange.status < 400) {
      const id = (exchange.body as { id?: unknown } | null)?.id;
      if (typeof id !== 'string' || id === '') throw malformedError('media', 'the upload was answered without a media id');
      return id;
    }
    if (exchange.kind === 'answered' && exchange.status < 500 && exchange.status !== 429) throw rejectedError('media', exchange);
    throw readFailure(exchange, 'media');
  }

  async function listTemplates(wabaId: string, accessToken: string, listOptions: ListTemplatesOptions = {}): Promise<GraphTemplate[]> {
    const firstUrl = new URL(`${baseUrl}/${encodeURIComponent(wabaId)}/message_templates`);
    if (listOptions.pageSize !== undefined) firstUrl.searchParams.set('limit', String(listOptions.pageSize));
    const templates: GraphTemplate[] = [];
    let url: string | undefined = firstUrl.toString();
    for (let page = 0; url !== undefined; page++) {
      if (page >= MAX_TEMPLATE_PAGES) throw malformedError('list_templates', `more than ${MAX_TEMPLATE_PAGES} pages of templates`);
      const body = await read(url, accessToken);
      const data = (body as { data?: unknown } | null)?.data;
      if (!Array.isArray(data)) throw malformedError('list_templates', 'the template list has no data array');
      templates.push(...data.flatMap(toTemplate));
      url = nextPageUrl(firstUrl, (body as { paging?: unknown }).paging);
    }
    return templates;
  }

  return { sendMessage, listTemplates, markRead, downloadMedia, uploadMedia };
}

/** A body of at most `maxBytes`, read as it streams: a larger one is cut off, never held whole. */
async function readAtMost(response: Response, maxBytes: number): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length'));
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw new MediaTooLargeError(declared);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += (chunk as Uint8Array).length;
    if (size > maxBytes) throw new MediaTooLargeError(size);
    chunks.push(Buffer.from(chunk as Uint8Array));
  }
  return Buffer.concat(chunks);
}

/** Why a retried call gave up: only a refusal by the chat network counts as rejected. */
function readFailure(exchange: Exchange, operation: ChatOperation): ChatNetworkError {
  if (exchange.kind === 'not_reached') return notReachedError(operation, exchange.cause);
  if (exchange.kind === 'lost') return lostError(operation, exchange);
  if (exchange.status === 429) return rejectedError(operation, exchange);
  return serverError(operation, exchange);
}

function jsonHeaders(accessToken: string): Record<string, string> {
  return { Authorization: `Bearer ${accessToken}`, 'Content-Type': 'application/json' };
}

function parseMetaError(body: unknown): MetaError {
  const error = (body as { error?: Record<string, unknown> } | undefined)?.error;
  if (!error || typeof error !== 'object') return {};
  const details = (error.error_data as { details?: unknown } | undefined)?.details;
  return {
    code: typeof error.code === 'number' ? error.code : undefined,
    message: typeof error.message === 'string' ? error.message : undefined,
    details: typeof details === 'string' ? details : undefined,
  };
}

function parseSendResult(body: unknown, status: number): SendResult {
  const reply = body as { messages?: Array<{ id?: unknown; message_status?: unknown }>; contacts?: Array<{ wa_id?: unknown }> } | undefined;
  const message = Array.isArray(reply?.messages) ? reply.messages[0] : undefined;
  if (typeof message?.id !== 'string' || message.id === '') {
    throw new ChatNetworkError('The chat network answered the send without a message id; its outcome is unknown.', {
      outcome: 'unknown',
      operation: 'send',
      httpStatus: status,
    });
  }
  const contact = Array.isArray(reply?.contacts) ? reply.contacts[0] : undefined;
  return {
    chatmid: message.id,
    waId: typeof contact?.wa_id === 'string' ? contact.wa_id : '',
    messageStatus: typeof message.message_status === 'string' ? message.message_status : 'accepted',
  };
}

/** Keeps well-formed template records; a stray entry must not fail a whole sync. */
function toTemplate(item: unknown): GraphTemplate[] {
  const record = item as Record<string, unknown> | null;
  if (!record || typeof record.name !== 'string' || typeof record.language !== 'string') return [];
  return [
    {
      ...record,
      id: String(record.id ?? ''),
      name: record.name,
      language: record.language,
      status: typeof record.status === 'string' ? record.status : 'UNKNOWN',
      category: typeof record.category === 'string' ? record.category : '',
      components: Array.isArray(record.components) ? (record.components as GraphTemplateComponent[]) : [],
    },
  ];
}

/**
 * The next page, built from the `after` cursor on our own base URL so the access
 * token never follows a link to another host; `paging.next` alone is used only
 * when it points at the same origin.
 */
function nextPageUrl(firstUrl: URL, paging: unknown): string | undefined {
  const info = paging as { next?: unknown; cursors?: { after?: unknown } } | undefined;
  if (typeof info?.next !== 'string') return undefined;
  const after = info.cursors?.after;
  if (typeof after === 'string' && after !== '') {
    const url = new URL(firstUrl);
    url.searchParams.set('after', after);
    return url.toString();
  }
  const next = safeUrl(info.next);
  return next?.origin === firstUrl.origin ? next.toString() : undefined;
}

function safeUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

function notReachedError(operation: ChatOperation, cause: unknown): ChatNetworkError {
  const message =
    cause instanceof OutboundDeadlineError
      ? 'The chat network was not called: too little of the invocation time was left; the request was not sent.'
      : 'The chat network could not be reached; the request was not sent.';
  return new ChatNetworkError(message, { outcome: 'not_sent', operation, cause });
}

function lostError(operation: ChatOperation, exchange: Extract<Exchange, { kind: 'lost' }>): ChatNetworkError {
  const what = exchange.timedOut ? `did not answer within ${exchange.timeoutMs} ms` : 'closed the connection before answering';
  return new ChatNetworkError(`The chat network ${what}.`, { outcome: 'unknown', operation, cause: exchange.cause });
}

function serverError(operation: ChatOperation, exchange: Extract<Exchange, { kind: 'answered' }>): ChatNetworkError {
  const meta = parseMetaError(exchange.body);
  return new ChatNetworkError(`The chat network failed with HTTP ${exchange.status}${meta.message ? `: ${meta.message}` : ''}.`, {
    outcome: 'unknown',
    operation,
    httpStatus: exchange.status,
    metaCode: meta.code,
    details: meta.details,
  });
}

function rejectedError(operation: ChatOperation, exchange: Extract<Exchange, { kind: 'answered' }>): ChatNetworkError {
  const meta = parseMetaError(exchange.body);
  const retryAfter = exchange.status === 429 ? parseRetryAfter(exchange.headers.get('retry-after')) : undefined;
  return new ChatNetworkError(meta.message ?? `The chat network refused the request with HTTP ${exchange.status}.`, {
    outcome: 'rejected',
    operation,
    httpStatus: exchange.status,
    metaCode: meta.code,
    details: meta.details,
    retryAfterSeconds: retryAfter,
  });
}

function malformedError(operation: ChatOperation, what: string): ChatNetworkError {
  return new ChatNetworkError(`The chat network's answer was malformed: ${what}.`, { outcome: 'unknown', operation });
}

/**
 * Maps a chat-network failure to the API's typed errors. Messages speak to the
 * API caller; the access token never appears in any of them.
 */
export function toCallerError(err: ChatNetworkError): AppError {
  if (err.outcome === 'not_sent') {
    return new UnavailableError('The chat network could not be reached; nothing was sent. Retry shortly.', {
      code: 'chat_network_unavailable',
      cause: err,
    });
  }
  if (err.outcome === 'unknown') {
    return new UpstreamError(
      err.operation === 'send'
        ? 'The chat network did not confirm the message, so its outcome is unknown. It was not resent; its status will settle when the chat network reports it by webhook.'
        : 'The chat network did not answer properly. Retry shortly.',
      undefined,
      err,
    );
  }
  return rejectionToCallerError(err);
}

/** Meta's words (code 100) for a media `id` that the number does not hold: never uploaded to it, deleted, or past its 30 days. */
const UNKNOWN_MEDIA_ID = /\['id'\] is not a valid whatsapp business account media attachment ID/i;

function rejectionToCallerError(err: ChatNetworkError): AppError {
  const code = err.metaCode;
  const reason = err.details ?? err.message;
  if (err.httpStatus === 429 || (code !== undefined && THROTTLE_CODES.has(code))) {
    const seconds = Math.ceil(err.retryAfterSeconds ?? DEFAULT_THROTTLE_RETRY_AFTER_SECONDS);
    return new UnavailableError('The chat network is throttling messages from this channel or to this recipient. Retry after the time in Retry-After.', {
      code: 'chat_network_throttled',
      retryAfterSeconds: seconds,
      cause: err,
    });
  }
  switch (code) {
    case 131047:
      return new InvalidInputError(
        'More than 24 hours have passed since this contact last wrote, so only a template message can be sent: use chat/templates/send.',
        'to',
        'outside_session_window',
      );
    case 132000:
      return new InvalidInputError(
        `The template variables do not match the template: pass as many body variables (and the header) as it defines. (${reason})`,
        'variables',
      );
    case 132018:
      return new InvalidInputError(
        `The chat network refused a template variable: no newlines, tabs or more than four consecutive spaces. (${reason})`,
        'variables',
      );
    case 132001:
      return new NotFoundError('The template does not exist on the chat network with that name and language.', { parameter: 'templateName' });
    case 131026:
      return new InvalidInputError('The chat network cannot deliver messages to this number.', 'to', 'undeliverable');
    case 190:
      return new UpstreamError("The channel's chat-network access token has expired or is invalid; an operator must rotate it.", undefined, err);
    case 100:
      if (UNKNOWN_MEDIA_ID.test(reason)) {
        const parameter = reason.includes('header') ? 'interactive' : 'mediaId';
        return new InvalidInputError(
          `The chat network holds no media under that id for this channel's number: upload the file with chat/media/upload and send the mediaId it answers. (${reason})`,
          parameter,
          'unknown_media_id',
        );
      }
      return new InvalidInputError(`The chat network refused a parameter: ${reason}`);
    case 131008:
    case 131009:
      return new InvalidInputError(`The chat network refused a parameter: ${reason}`);
    default:
      return new UpstreamError(
        `The chat network refused the request${code === undefined ? '' : ` (error ${code})`}: ${reason}`,
        {
          chatNetworkCode: code,
        },
        err,
      );
  }
}
