import { setTimeout as delay } from 'node:timers/promises';
import { clock } from '../clock';
import { outboundDeadline } from './deadline';

/**
 * Outbound HTTP on global fetch, for any service we call (the chat network's Graph API
 * today, outbound webhooks tomorrow). It knows nothing of the remote API: it makes the
 * exchange, sorts each failure by what it tells about the request's fate, and applies
 * the retry rules; the caller turns the last exchange into its own errors.
 *
 * The rule that shapes it: a request with side effects must never be made twice. It is
 * retried only when it surely never reached the remote service (the connection was
 * refused, the host did not resolve) or when the service answered "429, try again" and
 * so did not take it. After a timeout or a dropped connection it may or may not have
 * been processed: the fate is `unknown`, never a resend. Requests without side effects
 * (reads) retry freely.
 *
 * Every call ends by a deadline (by default the invocation's: shared/outbound/deadline.ts).
 * An attempt's timeout is cut to it; a retry, or a 429's wait, is not taken unless a
 * whole attempt still fits before it; with too little time left the first attempt is
 * not made at all (`not_reached`: nothing was sent).
 */

export interface HttpRequest {
  method: string;
  headers: Record<string, string>;
  /** JSON text, or a multipart form (fetch sets its Content-Type with the boundary). */
  body?: string | FormData;
}

/** One HTTP exchange, classified by what it tells about the request's fate. */
export type Exchange =
  | { kind: 'answered'; status: number; headers: Headers; body: unknown }
  | { kind: 'not_reached'; cause: unknown }
  | { kind: 'lost'; timedOut: boolean; timeoutMs: number; cause: unknown };

/**
 * What became of a request with side effects:
 * - `sent`: the service answered below 500 (accepted or refused, its answer says which);
 * - `unknown`: it may have been processed (timeout, dropped connection, a 5xx a proxy may have sent after it went through);
 * - `not_sent`: it never reached the service, or the service answered 429 and did not take it.
 */
export type RequestFate = 'sent' | 'unknown' | 'not_sent';

export function fateOf(exchange: Exchange): RequestFate {
  if (exchange.kind === 'not_reached') return 'not_sent';
  if (exchange.kind === 'lost') return 'unknown';
  if (exchange.status === 429) return 'not_sent';
  return exchange.status >= 500 ? 'unknown' : 'sent';
}

export interface RetryOptions {
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
  /** Less time than this before the deadline, and no attempt starts. Default 500 ms (at most `timeoutMs`). */
  minAttemptMs?: number;
  /** The real clock deadlines are on. Default `clock.realNow`. */
  now?: () => number;
}

export type RetryPolicy = Required<RetryOptions>;

/** The options with their defaults filled in. */
export function retryPolicy(options: RetryOptions = {}): RetryPolicy {
  return {
    timeoutMs: options.timeoutMs ?? 10_000,
    maxAttempts: Math.max(1, options.maxAttempts ?? 3),
    sleep: options.sleep ?? ((ms: number) => delay(ms)),
    backoffBaseMs: options.backoffBaseMs ?? 200,
    maxRetryAfterSeconds: options.maxRetryAfterSeconds ?? 5,
    random: options.random ?? Math.random,
    minAttemptMs: Math.min(options.minAttemptMs ?? 500, options.timeoutMs ?? 10_000),
    now: options.now ?? clock.realNow,
  };
}

/** Why an attempt was not made: too little of the invocation's time was left. */
export class OutboundDeadlineError extends Error {
  constructor(leftMs: number) {
    super(`Only ${Math.max(0, Math.round(leftMs))} ms were left before the deadline; the request was not made.`);
    this.name = 'OutboundDeadlineError';
  }
}

/** The next attempt's timeout: the policy's, cut to the deadline; undefined when too little time is left to start one. */
function attemptTimeoutMs(policy: RetryPolicy, deadlineMs: number | undefined): number | undefined {
  if (deadlineMs === undefined) return policy.timeoutMs;
  const left = deadlineMs - policy.now();
  return left < policy.minAttemptMs ? undefined : Math.min(policy.timeoutMs, left);
}

/** Whether, after `waitMs`, a whole attempt still ends before the deadline. */
function retryFits(policy: RetryPolicy, deadlineMs: number | undefined, waitMs: number): boolean {
  return deadlineMs === undefined || policy.now() + waitMs + policy.timeoutMs <= deadlineMs;
}

/** One attempt within the deadline, or `not_reached` without a request when too little time is left. */
async function attemptBy(url: string, request: HttpRequest, policy: RetryPolicy, deadlineMs: number | undefined): Promise<Exchange> {
  const timeoutMs = attemptTimeoutMs(policy, deadlineMs);
  if (timeoutMs === undefined) return { kind: 'not_reached', cause: new OutboundDeadlineError((deadlineMs ?? 0) - policy.now()) };
  return exchangeOnce(url, request, timeoutMs);
}

/** Backoff before attempt `attempt + 1`: exponential, with half of it jittered so clients do not retry in lockstep. */
export function backoffMs(policy: RetryPolicy, attempt: number): number {
  const ceiling = policy.backoffBaseMs * 2 ** (attempt - 1);
  return ceiling / 2 + policy.random() * (ceiling / 2);
}

/**
 * The wait a 429 asks for (its Retry-After, else the backoff), or undefined when it
 * is too long to wait inside a request (the caller then passes Retry-After on).
 */
export function throttleWaitMs(policy: RetryPolicy, headers: Headers, attempt: number): number | undefined {
  const seconds = parseRetryAfter(headers.get('retry-after'));
  if (seconds === undefined) return backoffMs(policy, attempt);
  return seconds <= policy.maxRetryAfterSeconds ? seconds * 1000 : undefined;
}

/**
 * A request with side effects: made again only after "not reached" (with backoff) or a
 * 429 whose wait is within the cap, up to `maxAttempts` and only when a whole attempt
 * still fits before the deadline. Returns the last exchange; a `lost` one and any
 * other answer end it at once.
 */
export async function exchangeWithoutRepeat(url: string, request: HttpRequest, policy: RetryPolicy, deadlineMs = outboundDeadline()): Promise<Exchange> {
  for (let attempt = 1; ; attempt++) {
    const exchange = await attemptBy(url, request, policy, deadlineMs);
    if (exchange.kind === 'not_reached' && exchange.cause instanceof OutboundDeadlineError) return exchange;
    const more = attempt < policy.maxAttempts;
    const wait = !more
      ? undefined
      : exchange.kind === 'not_reached'
        ? backoffMs(policy, attempt)
        : exchange.kind === 'answered' && exchange.status === 429
          ? throttleWaitMs(policy, exchange.headers, attempt)
          : undefined;
    if (wait === undefined || !retryFits(policy, deadlineMs, wait)) return exchange;
    await policy.sleep(wait);
  }
}

/**
 * A request without side effects: made again after anything but an answer below 500
 * (other than 429), up to `maxAttempts` and only when a whole attempt still fits
 * before the deadline; a 429 whose wait is above the cap ends it. Returns the last
 * exchange.
 */
export async function exchangeIdempotent(url: string, request: HttpRequest, policy: RetryPolicy, deadlineMs = outboundDeadline()): Promise<Exchange> {
  for (let attempt = 1; ; attempt++) {
    const exchange = await attemptBy(url, request, policy, deadlineMs);
    if (exchange.kind === 'not_reached' && exchange.cause instanceof OutboundDeadlineError) return exchange;
    const throttled = exchange.kind === 'answered' && exchange.status === 429;
    if (exchange.kind === 'answered' && exchange.status < 500 && !throttled) return exchange;
    if (attempt >= policy.maxAttempts) return exchange;
    const wait = exchange.kind === 'answered' && throttled ? throttleWaitMs(policy, exchange.headers, attempt) : backoffMs(policy, attempt);
    if (wait === undefined || !retryFits(policy, deadlineMs, wait)) return exchange;
    await policy.sleep(wait);
  }
}

/** One attempt with its own timeout; the timeout also covers reading the body. */
export async function exchangeOnce(url: string, request: HttpRequest, timeoutMs: number): Promise<Exchange> {
  let response: Response;
  try {
    response = await fetch(url, { ...request, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    return classifyFetchError(error, timeoutMs);
  }
  try {
    const text = await response.text();
    return { kind: 'answered', status: response.status, headers: response.headers, body: parseJson(text) };
  } catch (error) {
    // The status line arrived, so the request was processed; only its answer was lost.
    return { kind: 'lost', timedOut: isTimeout(error), timeoutMs, cause: error };
  }
}

/** Connection errors that happen before a single byte of the request is written. */
const NOT_REACHED_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * Sorts fetch's failures into "surely not sent" and "may have been sent". Fetch
 * wraps socket errors in a TypeError whose `cause` carries the code (an
 * AggregateError's members carry it when several addresses were tried). A socket
 * closed mid-exchange (UND_ERR_SOCKET, ECONNRESET) cannot be told apart from one
 * closed after the server read the request, so it counts as lost.
 */
export function classifyFetchError(error: unknown, timeoutMs: number): Exchange {
  if (isTimeout(error)) return { kind: 'lost', timedOut: true, timeoutMs, cause: error };
  const codes = causeCodes(error);
  if (codes.length > 0 && codes.every((code) => NOT_REACHED_CODES.has(code))) return { kind: 'not_reached', cause: error };
  return { kind: 'lost', timedOut: false, timeoutMs, cause: error };
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

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Retry-After in seconds (delta-seconds or an HTTP date), or undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - clock.now()) / 1000));
}
