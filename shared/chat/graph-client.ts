import { setTimeout as delay } from 'node:timers/promises';
import { clock } from '../clock';
import {
  BadGatewayError,
  BadRequestError,
  HttpError,
  NotFoundError,
  ServiceUnavailableError,
} from '../http/errors';
import type { SendPayload } from './payloads';
import type { GraphTemplate, GraphTemplateComponent } from './templates';

export { buildMediaPayload, buildTemplatePayload, buildTextPayload } from './payloads';
export type { MediaObject, MediaType, SendPayload, TemplateHeaderInput, TemplateInput } from './payloads';

/**
 * A thin WhatsApp Cloud API (Graph API) client on global fetch.
 *
 * The rule that shapes it: a message must never be sent twice. A send is retried
 * only when it surely never reached the chat network (the connection was refused
 * or the host did not resolve) or when the network said "429, try again" and so did
 * not take it. After a timeout or a 5xx the message may or may not have gone out,
 * so the caller gets outcome `unknown` instead of a resend. Reads have no side
 * effects and retry freely.
 */

/**
 * - `rejected`: the chat network answered and refused; nothing was sent.
 * - `unknown`: the request may have been processed (timeout, 5xx, garbled success).
 * - `not_sent`: the request never reached the chat network.
 */
export type ChatOutcome = 'rejected' | 'unknown' | 'not_sent';

/** Which call failed; an unknown outcome means something else for a read than for a send. */
export type ChatOperation = 'send' | 'list_templates';

export interface ChatNetworkErrorInit {
  outcome: ChatOutcome;
  operation: ChatOperation;
  metaCode?: number;
  httpStatus?: number;
  details?: string;
  retryAfterSeconds?: number;
  cause?: unknown;
}

/** A failed chat-network call; `toHttpError` turns it into the API's answer. */
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

export interface GraphClientOptions {
  /** Graph API base including the version, e.g. `https://graph.facebook.com/v21.0`. */
  baseUrl: string;
  /** Per attempt, covering the answer's body too. Default 10 000 ms. */
  timeoutMs?: number;
  /** Attempts per call, the first included. Default 3. */
  maxAttempts?: number;
  /** Injectable so tests need not wait. */
  sleep?: (ms: number) => Promise<void>;
  /** First backoff delay; doubles per attempt, with jitter. Default 200 ms. */
  backoffBaseMs?: number;
  /** A 429 whose Retry-After is longer than this is not waited for inside a request. Default 5 s. */
  maxRetryAfterSeconds?: number;
  /** Source of jitter in [0, 1). Default Math.random. */
  random?: () => number;
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
}

/** Connection errors that happen before a single byte of the request is written. */
const NOT_REACHED_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

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

/** One HTTP exchange, classified by what it tells about the request's fate. */
type Exchange =
  | { kind: 'answered'; status: number; headers: Headers; body: unknown }
  | { kind: 'not_reached'; cause: unknown }
  | { kind: 'lost'; timedOut: boolean; cause: unknown };

/** Creates a client bound to one Graph API base URL. */
export function createGraphClient(options: GraphClientOptions): GraphClient {
  const settings = {
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    timeoutMs: options.timeoutMs ?? 10_000,
    maxAttempts: Math.max(1, options.maxAttempts ?? 3),
    sleep: options.sleep ?? ((ms: number) => delay(ms)),
    backoffBaseMs: options.backoffBaseMs ?? 200,
    maxRetryAfterSeconds: options.maxRetryAfterSeconds ?? 5,
    random: options.random ?? Math.random,
  };

  /** Backoff before attempt `attempt + 1`: exponential, with half of it jittered so clients do not retry in lockstep. */
  function backoffMs(attempt: number): number {
    const ceiling = settings.backoffBaseMs * 2 ** (attempt - 1);
    return ceiling / 2 + settings.random() * (ceiling / 2);
  }

  /**
   * The wait a 429 asks for, or undefined when it is too long to wait inside a
   * request (the caller then gets Retry-After instead).
   */
  function throttleWaitMs(headers: Headers, attempt: number): number | undefined {
    const seconds = parseRetryAfter(headers.get('retry-after'));
    if (seconds === undefined) return backoffMs(attempt);
    return seconds <= settings.maxRetryAfterSeconds ? seconds * 1000 : undefined;
  }

  async function sendMessage(phoneNumberId: string, accessToken: string, payload: SendPayload): Promise<SendResult> {
    const url = `${settings.baseUrl}/${encodeURIComponent(phoneNumberId)}/messages`;
    const init = { method: 'POST', headers: jsonHeaders(accessToken), body: JSON.stringify(payload) };
    for (let attempt = 1; ; attempt++) {
      const exchange = await exchangeOnce(url, init, settings);
      if (exchange.kind === 'not_reached') {
        if (attempt < settings.maxAttempts) {
          await settings.sleep(backoffMs(attempt));
          continue;
        }
        throw notReachedError('send', exchange.cause);
      }
      if (exchange.kind === 'lost') throw lostError('send', exchange, settings.timeoutMs);
      if (exchange.status === 429) {
        const wait = attempt < settings.maxAttempts ? throttleWaitMs(exchange.headers, attempt) : undefined;
        if (wait !== undefined) {
          await settings.sleep(wait);
          continue;
        }
        throw rejectedError('send', exchange);
      }
      // A 5xx may come from a proxy after the message went out: never resend.
      if (exchange.status >= 500) throw serverError('send', exchange);
      if (exchange.status >= 400) throw rejectedError('send', exchange);
      return parseSendResult(exchange.body, exchange.status);
    }
  }

  /** GET with free retries: reading twice does no harm. */
  async function read(url: string, accessToken: string): Promise<unknown> {
    const init = { method: 'GET', headers: { Authorization: `Bearer ${accessToken}` } };
    for (let attempt = 1; ; attempt++) {
      const exchange = await exchangeOnce(url, init, settings);
      const last = attempt >= settings.maxAttempts;
      if (exchange.kind === 'answered' && exchange.status < 400) return exchange.body;
      if (exchange.kind === 'answered' && exchange.status >= 400 && exchange.status < 500 && exchange.status !== 429) {
        throw rejectedError('list_templates', exchange);
      }
      if (last) throw readFailure(exchange, settings.timeoutMs);
      const wait =
        exchange.kind === 'answered' && exchange.status === 429 ? throttleWaitMs(exchange.headers, attempt) : backoffMs(attempt);
      if (wait === undefined) throw readFailure(exchange, settings.timeoutMs);
      await settings.sleep(wait);
    }
  }

  async function listTemplates(wabaId: string, accessToken: string, listOptions: ListTemplatesOptions = {}): Promise<GraphTemplate[]> {
    const firstUrl = new URL(`${settings.baseUrl}/${encodeURIComponent(wabaId)}/message_templates`);
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

  return { sendMessage, listTemplates };
}

/** Why a read gave up: only a refusal by the chat network counts as rejected. */
function readFailure(exchange: Exchange, timeoutMs: number): ChatNetworkError {
  if (exchange.kind === 'not_reached') return notReachedError('list_templates', exchange.cause);
  if (exchange.kind === 'lost') return lostError('list_templates', exchange, timeoutMs);
  if (exchange.status === 429) return rejectedError('list_templates', exchange);
  return serverError('list_templates', exchange);
}

/** One attempt with its own timeout; the timeout also covers reading the body. */
async function exchangeOnce(
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
  settings: { timeoutMs: number },
): Promise<Exchange> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(settings.timeoutMs) });
  } catch (error) {
    return classifyFetchError(error);
  }
  try {
    const text = await response.text();
    return { kind: 'answered', status: response.status, headers: response.headers, body: parseJson(text) };
  } catch (error) {
    // The status line arrived, so the request was processed; only its answer was lost.
    return { kind: 'lost', timedOut: isTimeout(error), cause: error };
  }
}

/**
 * Sorts fetch's failures into "surely not sent" and "may have been sent". Fetch
 * wraps socket errors in a TypeError whose `cause` carries the code (an
 * AggregateError's members carry it when several addresses were tried). A socket
 * closed mid-exchange (UND_ERR_SOCKET, ECONNRESET) cannot be told apart from one
 * closed after the server read the request, so it counts as lost.
 */
function classifyFetchError(error: unknown): Exchange {
  if (isTimeout(error)) return { kind: 'lost', timedOut: true, cause: error };
  const codes = causeCodes(error);
  if (codes.length > 0 && codes.every((code) => NOT_REACHED_CODES.has(code))) return { kind: 'not_reached', cause: error };
  return { kind: 'lost', timedOut: false, cause: error };
}

function causeCodes(error: unknown): string[] {
  const cause = (error as { cause?: { code?: unknown; errors?: unknown } } | undefined)?.cause;
  if (!cause) return [];
  if (typeof cause.code === 'string') return [cause.code];
  if (!Array.isArray(cause.errors)) return [];
  return cause.errors.map((inner: { code?: unknown }) => inner?.code).filter((code): code is string => typeof code === 'string');
}

function isTimeout(error: unknown): boolean {
  const name = (error as { name?: unknown } | undefined)?.name;
  return name === 'TimeoutError' || name === 'AbortError';
}

function jsonHeaders(accessToken: string): Record<string, string> {
  return { Authorization: `Bearer ${accessToken}`, 'Content-Type': 'application/json' };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Retry-After in seconds (delta-seconds or an HTTP date), or undefined when absent or unreadable. */
function parseRetryAfter(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - clock.now()) / 1000));
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
  return new ChatNetworkError('The chat network could not be reached; the request was not sent.', { outcome: 'not_sent', operation, cause });
}

function lostError(operation: ChatOperation, exchange: Extract<Exchange, { kind: 'lost' }>, timeoutMs: number): ChatNetworkError {
  const what = exchange.timedOut ? `did not answer within ${timeoutMs} ms` : 'closed the connection before answering';
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
export function toHttpError(err: ChatNetworkError): HttpError {
  if (err.outcome === 'not_sent') {
    return new ServiceUnavailableError(
      'The chat network could not be reached; nothing was sent. Retry shortly.',
      undefined,
      'chat_network_unavailable',
    );
  }
  if (err.outcome === 'unknown') {
    return new BadGatewayError(
      err.operation === 'send'
        ? 'The chat network did not confirm the message, so its outcome is unknown. It was not resent; its status will settle when the chat network reports it by webhook.'
        : 'The chat network did not answer properly. Retry shortly.',
    );
  }
  return rejectionToHttpError(err);
}

function rejectionToHttpError(err: ChatNetworkError): HttpError {
  const code = err.metaCode;
  const reason = err.details ?? err.message;
  if (err.httpStatus === 429 || (code !== undefined && THROTTLE_CODES.has(code))) {
    const seconds = Math.ceil(err.retryAfterSeconds ?? DEFAULT_THROTTLE_RETRY_AFTER_SECONDS);
    return new ServiceUnavailableError(
      'The chat network is throttling messages from this channel or to this recipient. Retry after the time in Retry-After.',
      { 'Retry-After': String(seconds) },
      'chat_network_throttled',
    );
  }
  switch (code) {
    case 131047:
      return new BadRequestError(
        'More than 24 hours have passed since this contact last wrote, so only a template message can be sent: use chat/templates/send.',
        'to',
        'outside_session_window',
      );
    case 132000:
      return new BadRequestError(
        `The template variables do not match the template: pass as many body variables (and the header) as it defines. (${reason})`,
        'variables',
      );
    case 132018:
      return new BadRequestError(
        `The chat network refused a template variable: no newlines, tabs or more than four consecutive spaces. (${reason})`,
        'variables',
      );
    case 132001:
      return new NotFoundError('The template does not exist on the chat network with that name and language.', { parameter: 'templateName' });
    case 131026:
      return new BadRequestError('The chat network cannot deliver messages to this number.', 'to', 'undeliverable');
    case 190:
      return new BadGatewayError("The channel's chat-network access token has expired or is invalid; an operator must rotate it.");
    case 100:
    case 131008:
      return new BadRequestError(`The chat network refused a parameter: ${reason}`);
    default:
      return new BadGatewayError(`The chat network refused the request${code === undefined ? '' : ` (error ${code})`}: ${reason}`, {
        chatNetworkCode: code,
      });
  }
}
