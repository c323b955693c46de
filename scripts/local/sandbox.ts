import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { signPayload } from '../../shared/chat/signature';
import { clock } from '../../shared/clock';
import { errorTitle, metaError, metaErrorBody, statusErrorMessage, templatesForWaba, type MetaErrorSpec } from './sandbox-catalog';
import { canonicalWaId, validateSend, type SendKind } from './sandbox-validate';

/**
 * The sandbox chat network: a local HTTP server speaking the subset of the
 * WhatsApp Cloud API the service uses (INTERFACE.md §2 and §4), so the service
 * runs and is tested through the same client that talks to Meta.
 *
 * - Graph API: `POST /{version}/{phone-number-id}/messages`, `GET /{version}/{waba-id}/message_templates`.
 * - Webhooks: signed status (`sent`, `delivered`, or `failed`) and inbound deliveries to the webhook URL.
 * - Control API for tests and the operator CLI in another process: `/_sandbox/*`.
 */

export interface SandboxOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  /** Signs webhook deliveries (`X-Hub-Signature-256`). */
  appSecret: string;
  webhookUrl?: string;
  /** Pause before each status webhook. Default 50 ms. */
  statusDelayMs?: number;
  graphVersion?: string;
  /** Pauses between webhook delivery attempts; their count is the number of retries. Default [200, 1000, 3000]. */
  webhookRetryDelaysMs?: number[];
  /** Per webhook delivery attempt. Default 5000 ms. */
  webhookTimeoutMs?: number;
}

export interface SandboxPhoneNumber {
  phoneNumberId: string;
  wabaId: string;
  accessToken: string;
  displayPhoneNumber: string;
}

/** A send the sandbox accepted and gave an id. */
export interface SandboxSentMessage {
  phoneNumberId: string;
  body: unknown;
  chatmid: string;
  at: number;
}

/** Every Graph API request received, answered or not (faults included). */
export interface SandboxRequestRecord {
  method: string;
  path: string;
  at: number;
}

export type SandboxFaultKind = '5xx' | '429' | 'timeout' | 'meta_error' | 'malformed';

export interface SandboxFault {
  kind: SandboxFaultKind;
  /** How many matching requests it answers. Default 1. */
  count?: number;
  /** The Meta error code in the answer. */
  code?: number;
  /** For 429: the Retry-After header. Default 1. */
  retryAfterSeconds?: number;
  /** Which endpoint it hits; both when absent. */
  path?: 'messages' | 'templates';
}

export interface InboundInput {
  phoneNumberId: string;
  from: string;
  /** A text message; or pass `message`. */
  text?: string;
  /** Any other message type, in the Cloud API shape without from/id/timestamp: `{type: 'image', image: {id, mime_type, caption}}` (scripts/local/inbound-messages.ts builds them). */
  message?: Record<string, unknown>;
  profileName?: string;
}

export interface SandboxHandle {
  /** e.g. `http://127.0.0.1:41234`; the control API lives under it. */
  url: string;
  /** `url` plus the Graph version, what a Cloud API client takes as its base. */
  graphBaseUrl: string;
  close(): Promise<void>;
  registerPhoneNumber(number: SandboxPhoneNumber): void;
  sent: SandboxSentMessage[];
  requests: SandboxRequestRecord[];
  /** Every later message to `to` fails by webhook with `code`. */
  failNumber(to: string, code: number): void;
  injectFault(fault: SandboxFault): void;
  /** Delivers an inbound message by webhook; rejects with {@link SandboxWebhookError} unless the service answers 200. */
  deliverInbound(input: InboundInput): Promise<{ chatmid: string }>;
  setWebhookUrl(url: string | undefined): void;
  /** Resolves once no webhook delivery is scheduled or in flight. */
  idle(): Promise<void>;
}

/** The service did not acknowledge a delivery; `status` is its last HTTP status, 0 when it was unreachable. */
export class SandboxWebhookError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'SandboxWebhookError';
  }
}

/** A caller's mistake in a control API call or a handle method. */
class SandboxInputError extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

const SESSION_WINDOW_MS = 24 * 60 * 60 * 1000;
const MAX_BODY_BYTES = 1_000_000;
const DEFAULT_TEMPLATE_PAGE_SIZE = 25;

interface PendingFault extends SandboxFault {
  remaining: number;
}

/** A message accepted by the Graph API whose statuses still have to be reported. */
interface AcceptedMessage {
  number: SandboxPhoneNumber;
  chatmid: string;
  waId: string;
  category: string;
  failureCode?: number;
}

/** Starts the sandbox and resolves once it accepts connections. */
export async function startSandbox(options: SandboxOptions): Promise<SandboxHandle> {
  const settings = {
    host: options.host ?? '127.0.0.1',
    appSecret: options.appSecret,
    statusDelayMs: options.statusDelayMs ?? 50,
    graphVersion: options.graphVersion ?? 'v21.0',
    webhookRetryDelaysMs: options.webhookRetryDelaysMs ?? [200, 1000, 3000],
    webhookTimeoutMs: options.webhookTimeoutMs ?? 5000,
  };
  let webhookUrl = options.webhookUrl;
  const numbers = new Map<string, SandboxPhoneNumber>();
  /** When each customer last wrote to each business number: opens the 24-hour window. */
  const lastInboundAt = new Map<string, number>();
  const failingNumbers = new Map<string, number>();
  const faults: PendingFault[] = [];
  const sent: SandboxSentMessage[] = [];
  const requests: SandboxRequestRecord[] = [];
  const sockets = new Set<Socket>();
  const shutdown = new AbortController();
  let pending = 0;
  let idleWaiters: Array<() => void> = [];

  const server = createServer((req, res) => {
    handleRequest(req, res).catch((error: unknown) => {
      if (res.headersSent) return;
      const status = error instanceof SandboxInputError ? error.status : 500;
      sendJson(res, status, { error: error instanceof Error ? error.message : String(error) });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, settings.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${settings.host}:${port}`;
  const graphBaseUrl = `${url}/${settings.graphVersion}`;

  async function handleRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestUrl = new URL(req.url ?? '/', url);
    const segments = requestUrl.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    if (segments[0] === '_sandbox') return handleControl(req, res, segments.slice(1).join('/'));
    await handleGraph(req, res, segments, requestUrl);
  }

  // ---- Graph API -------------------------------------------------------------------

  async function handleGraph(req: IncomingMessage, res: ServerResponse, segments: string[], requestUrl: URL): Promise<void> {
    const [version, id, edge] = segments;
    const route = segments.length === 3 && version === settings.graphVersion ? graphRoute(req.method, edge) : undefined;
    if (!route) {
      await readBody(req);
      return sendMeta(res, { httpStatus: 400, code: 100, message: `Unsupported ${req.method} request to ${requestUrl.pathname}.` });
    }
    requests.push({ method: req.method ?? '', path: requestUrl.pathname, at: clock.now() });
    const raw = await readBody(req);
    const fault = takeFault(route);
    if (fault) return answerFault(res, fault);
    if (route === 'templates') return listTemplates(req, res, id, requestUrl);
    return sendMessage(req, res, id, raw);
  }

  function graphRoute(method: string | undefined, edge: string | undefined): 'messages' | 'templates' | undefined {
    if (method === 'POST' && edge === 'messages') return 'messages';
    if (method === 'GET' && edge === 'message_templates') return 'templates';
    return undefined;
  }

  function sendMessage(req: IncomingMessage, res: ServerResponse, phoneNumberId: string, raw: string): void {
    const number = numbers.get(phoneNumberId);
    const token = bearerToken(req);
    if (!number || number.accessToken !== token) return sendMeta(res, accessRefusal(token, `Object with ID '${phoneNumberId}'`));
    const body = parseJson(raw);
    if (body === undefined) return sendMeta(res, metaError(100, 'The request body is not valid JSON.'));
    const check = validateSend(body, templatesForWaba(number.wabaId));
    if (!check.ok) return sendMeta(res, check.error);
    const chatmid = newWamid();
    sent.push({ phoneNumberId, body, chatmid, at: clock.now() });
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
      failureCode: failureFor(number, check.waId, check.kind),
    };
    track(reportStatuses(message));
  }

  /** Decided at send time, as Meta does: an inbound arriving later does not rescue the message. */
  function failureFor(number: SandboxPhoneNumber, waId: string, kind: SendKind): number | undefined {
    const marked = failingNumbers.get(waId);
    if (marked !== undefined) return marked;
    if (kind === 'template') return undefined;
    const last = lastInboundAt.get(windowKey(number.phoneNumberId, waId));
    return last !== undefined && clock.now() - last <= SESSION_WINDOW_MS ? undefined : 131047;
  }

  function listTemplates(req: IncomingMessage, res: ServerResponse, wabaId: string, requestUrl: URL): void {
    const token = bearerToken(req);
    const wabaNumbers = [...numbers.values()].filter((number) => number.wabaId === wabaId);
    if (!wabaNumbers.some((number) => number.accessToken === token)) return sendMeta(res, accessRefusal(token, `Object with ID '${wabaId}'`));
    const limit = requestUrl.searchParams.has('limit') ? Number(requestUrl.searchParams.get('limit')) : DEFAULT_TEMPLATE_PAGE_SIZE;
    if (!Number.isInteger(limit) || limit < 1) return sendMeta(res, metaError(100, 'Param limit must be a positive integer.'));
    const after = requestUrl.searchParams.get('after');
    const start = after === null ? 0 : decodeCursor(after);
    if (start === undefined) return sendMeta(res, metaError(100, 'Param after is not a valid cursor.'));
    const all = templatesForWaba(wabaId);
    const page = all.slice(start, start + limit);
    sendJson(res, 200, { data: page, ...templatePaging(requestUrl, start, page.length, all.length) });
  }

  /** Graph's cursor paging: cursors mark where the page starts and ends, `next` is there only when more follow. */
  function templatePaging(requestUrl: URL, start: number, count: number, total: number): Record<string, unknown> {
    if (count === 0) return {};
    const after = encodeCursor(start + count);
    const paging: Record<string, unknown> = { cursors: { before: encodeCursor(start), after } };
    if (start + count < total) {
      const next = new URL(requestUrl.pathname + requestUrl.search, url);
      next.searchParams.set('after', after);
      paging.next = next.toString();
    }
    return { paging };
  }

  /**
   * A channel's token serves only its own number (and its WABA's templates):
   * anything else is Meta's invalid-token error, worded to help whoever debugs it.
   */
  function accessRefusal(token: string | undefined, object: string): MetaErrorSpec {
    const known = token !== undefined && [...numbers.values()].some((number) => number.accessToken === token);
    const message = known
      ? `Error validating access token: the token does not grant access to ${object}.`
      : 'Invalid OAuth access token - Cannot parse access token';
    return { httpStatus: 401, code: 190, message };
  }

  function takeFault(route: 'messages' | 'templates'): PendingFault | undefined {
    const index = faults.findIndex((fault) => fault.path === undefined || fault.path === route);
    if (index < 0) return undefined;
    const fault = faults[index];
    fault.remaining -= 1;
    if (fault.remaining <= 0) faults.splice(index, 1);
    return fault;
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

  // ---- Webhooks --------------------------------------------------------------------

  /** `sent` then `delivered`, or a single `failed`, each after a pause, as Meta reports them. */
  async function reportStatuses(message: AcceptedMessage): Promise<void> {
    await delay(settings.statusDelayMs, undefined, { signal: shutdown.signal });
    if (message.failureCode !== undefined) {
      await deliverWebhook(statusBody(message, 'failed'));
      return;
    }
    await deliverWebhook(statusBody(message, 'sent'));
    await delay(settings.statusDelayMs, undefined, { signal: shutdown.signal });
    await deliverWebhook(statusBody(message, 'delivered'));
  }

  function statusBody(message: AcceptedMessage, status: 'sent' | 'delivered' | 'failed'): Record<string, unknown> {
    const event: Record<string, unknown> = {
      id: message.chatmid,
      status,
      timestamp: unixSeconds(),
      recipient_id: message.waId,
    };
    if (message.failureCode !== undefined) {
      const code = message.failureCode;
      event.errors = [{ code, title: errorTitle(code), message: statusErrorMessage(code), error_data: { details: statusErrorMessage(code) } }];
    } else {
      event.conversation = { id: randomBytes(16).toString('hex'), origin: { type: message.category } };
      event.pricing = { billable: true, pricing_model: 'CBP', category: message.category };
    }
    return envelope(message.number, { statuses: [event] });
  }

  function envelope(number: SandboxPhoneNumber, value: Record<string, unknown>): Record<string, unknown> {
    return {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: number.wabaId,
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: number.displayPhoneNumber, phone_number_id: number.phoneNumberId },
                ...value,
              },
            },
          ],
        },
      ],
    };
  }

  /**
   * Posts one signed delivery, retrying on anything but 200 as Meta does. Resolves
   * with the last status (0 when unreachable); never rejects except on shutdown.
   */
  async function deliverWebhook(body: Record<string, unknown>): Promise<number> {
    const target = webhookUrl;
    if (target === undefined) return 0;
    const raw = JSON.stringify(body);
    let status = 0;
    for (let attempt = 0; ; attempt++) {
      status = await postSigned(target, raw);
      if (status === 200 || attempt >= settings.webhookRetryDelaysMs.length) return status;
      await delay(settings.webhookRetryDelaysMs[attempt], undefined, { signal: shutdown.signal });
    }
  }

  async function postSigned(target: string, raw: string): Promise<number> {
    try {
      const response = await fetch(target, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Hub-Signature-256': signPayload(raw, settings.appSecret) },
        body: raw,
        signal: AbortSignal.any([shutdown.signal, AbortSignal.timeout(settings.webhookTimeoutMs)]),
      });
      await response.arrayBuffer();
      return response.status;
    } catch (error) {
      if (shutdown.signal.aborted) throw error;
      return 0;
    }
  }

  async function deliverInbound(input: InboundInput): Promise<{ chatmid: string }> {
    const number = numbers.get(input.phoneNumberId);
    if (!number) throw new SandboxInputError(`Unknown phone number id ${input.phoneNumberId}: register it first.`, 404);
    const from = digitsOf(input.from, 'from');
    const content = inboundMessageBody(input);
    if (webhookUrl === undefined) throw new SandboxWebhookError('No webhook URL is set, so the inbound message cannot be delivered.', 0);
    const waId = canonicalWaId(from);
    const chatmid = newWamid();
    // The customer wrote on Meta's side whether or not the service takes the delivery.
    lastInboundAt.set(windowKey(number.phoneNumberId, waId), clock.now());
    const body = envelope(number, {
      contacts: [{ profile: { name: input.profileName ?? `Customer ${waId.slice(-4)}` }, wa_id: waId }],
      messages: [{ from: waId, id: chatmid, timestamp: unixSeconds(), ...content }],
    });
    const status = await track(deliverWebhook(body));
    if (status !== 200) throw new SandboxWebhookError(`The webhook answered ${status === 0 ? 'nothing' : `HTTP ${status}`}.`, status);
    return { chatmid };
  }

  /** The type and content fields of an inbound message: `message` as given (it must name its type), else a text. */
  function inboundMessageBody(input: InboundInput): Record<string, unknown> {
    if (input.message !== undefined) {
      if (typeof input.message.type !== 'string' || input.message.type === '') throw new SandboxInputError('message.type is required.');
      return input.message;
    }
    if (typeof input.text !== 'string' || input.text === '') throw new SandboxInputError('text (or message) is required.');
    return { type: 'text', text: { body: input.text } };
  }

  /** Counts a delivery as pending until it settles, for {@link SandboxHandle.idle}. */
  function track<T>(work: Promise<T>): Promise<T> {
    pending += 1;
    const settled = work.finally(() => {
      pending -= 1;
      if (pending > 0) return;
      const waiters = idleWaiters;
      idleWaiters = [];
      waiters.forEach((resolve) => resolve());
    });
    // Deliveries cut short by close() must not surface as unhandled rejections.
    settled.catch(() => undefined);
    return settled;
  }

  // ---- Control API -----------------------------------------------------------------

  async function handleControl(req: IncomingMessage, res: ServerResponse, action: string): Promise<void> {
    try {
      const raw = await readBody(req);
      if (req.method === 'GET' && action === 'sent') return sendJson(res, 200, sent);
      if (req.method !== 'POST') throw new SandboxInputError(`Unknown control call ${req.method} /_sandbox/${action}.`, 404);
      const input = parseJson(raw === '' ? '{}' : raw);
      if (input === undefined || input === null || typeof input !== 'object') throw new SandboxInputError('The body must be a JSON object.');
      const result = await runControl(action, input as Record<string, unknown>);
      sendJson(res, 200, result);
    } catch (error) {
      if (error instanceof SandboxWebhookError) return sendJson(res, 502, { error: error.message, webhookStatus: error.status });
      if (error instanceof SandboxInputError) return sendJson(res, error.status, { error: error.message });
      throw error;
    }
  }

  async function runControl(action: string, input: Record<string, unknown>): Promise<unknown> {
    switch (action) {
      case 'inbound':
        return deliverInbound({
          phoneNumberId: requiredString(input, 'phoneNumberId'),
          from: requiredString(input, 'from'),
          text: optionalString(input, 'text'),
          message: input.message !== null && typeof input.message === 'object' && !Array.isArray(input.message) ? (input.message as Record<string, unknown>) : undefined,
          profileName: optionalString(input, 'profileName'),
        });
      case 'fault':
        injectFault(input as unknown as SandboxFault);
        return { ok: true };
      case 'fail-number':
        failNumber(requiredString(input, 'to'), Number(input.code));
        return { ok: true };
      case 'phone-numbers':
        registerPhoneNumber({
          phoneNumberId: requiredString(input, 'phoneNumberId'),
          wabaId: requiredString(input, 'wabaId'),
          accessToken: requiredString(input, 'accessToken'),
          displayPhoneNumber: requiredString(input, 'displayPhoneNumber'),
        });
        return { ok: true };
      case 'webhook-url':
        setWebhookUrl(optionalString(input, 'url'));
        return { ok: true };
      default:
        throw new SandboxInputError(`Unknown control call POST /_sandbox/${action}.`, 404);
    }
  }

  // ---- Handle ----------------------------------------------------------------------

  /** Registers or replaces a business number; the local stack re-registers its channels at every start. */
  function registerPhoneNumber(number: SandboxPhoneNumber): void {
    numbers.set(number.phoneNumberId, { ...number });
  }

  function failNumber(to: string, code: number): void {
    if (!Number.isInteger(code) || code <= 0) throw new SandboxInputError('code must be a positive integer Meta error code.');
    failingNumbers.set(canonicalWaId(digitsOf(to, 'to')), code);
  }

  function injectFault(fault: SandboxFault): void {
    const kinds: readonly string[] = ['5xx', '429', 'timeout', 'meta_error', 'malformed'];
    if (!kinds.includes(fault.kind)) throw new SandboxInputError(`kind must be one of ${kinds.join(', ')}.`);
    if (fault.path !== undefined && fault.path !== 'messages' && fault.path !== 'templates') {
      throw new SandboxInputError("path must be 'messages' or 'templates'.");
    }
    const count = fault.count ?? 1;
    if (!Number.isInteger(count) || count < 1) throw new SandboxInputError('count must be a positive integer.');
    faults.push({ ...fault, remaining: count });
  }

  function setWebhookUrl(next: string | undefined): void {
    webhookUrl = next;
  }

  function idle(): Promise<void> {
    return pending === 0 ? Promise.resolve() : new Promise((resolve) => idleWaiters.push(resolve));
  }

  /** Stops at once: pending deliveries are dropped and hung requests are cut. */
  async function close(): Promise<void> {
    shutdown.abort();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
    await idle();
  }

  return {
    url,
    graphBaseUrl,
    close,
    registerPhoneNumber,
    sent,
    requests,
    failNumber,
    injectFault,
    deliverInbound,
    setWebhookUrl,
    idle,
  };
}

function windowKey(phoneNumberId: string, waId: string): string {
  return `${phoneNumberId}:${waId}`;
}

function bearerToken(req: IncomingMessage): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  return match?.[1];
}

function newWamid(): string {
  return `wamid.${randomBytes(24).toString('base64url')}`;
}

function unixSeconds(): string {
  return String(Math.floor(clock.now() / 1000));
}

function encodeCursor(index: number): string {
  return Buffer.from(String(index)).toString('base64url');
}

function decodeCursor(cursor: string): number | undefined {
  const index = Number(Buffer.from(cursor, 'base64url').toString());
  return Number.isInteger(index) && index >= 0 ? index : undefined;
}

function digitsOf(value: unknown, name: string): string {
  const digits = typeof value === 'string' ? value.replace(/^\+/, '') : '';
  if (!/^\d{7,15}$/.test(digits)) throw new SandboxInputError(`${name} must be a phone number of digits with country code.`);
  return digits;
}

function requiredString(input: Record<string, unknown>, name: string): string {
  const value = input[name];
  if (typeof value !== 'string' || value === '') throw new SandboxInputError(`${name} is required.`);
  return value;
}

function optionalString(input: Record<string, unknown>, name: string): string | undefined {
  const value = input[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new SandboxInputError('The body is too large.', 413);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function sendMeta(res: ServerResponse, spec: MetaErrorSpec, headers: Record<string, string> = {}): void {
  sendJson(res, spec.httpStatus, metaErrorBody(spec, randomBytes(12).toString('base64url')), headers);
}
