/**
 * The service's typed errors, free of HTTP: each says what went wrong in the caller's
 * terms (a kind, a stable snake_case `code`, a message written for people, the
 * parameter at fault) and keeps what caused it (ES2022 `cause`). The one mapping of a
 * kind to an HTTP status and the response envelope lives in shared/http/errors.ts.
 */

/** What went wrong, from the caller's point of view. */
export type ErrorKind = 'invalid_input' | 'unauthenticated' | 'forbidden' | 'not_found' | 'conflict' | 'rate_limited' | 'internal' | 'upstream' | 'unavailable';

/** Kinds the caller can fix by changing the request; the others are ours or a dependency's. */
const CALLER_FAULTS: ReadonlySet<ErrorKind> = new Set(['invalid_input', 'unauthenticated', 'forbidden', 'not_found', 'conflict', 'rate_limited']);

export interface ErrorDetails {
  /** The request parameter at fault, when there is one. */
  parameter?: string;
  [key: string]: unknown;
}

export interface AppErrorOptions {
  details?: ErrorDetails;
  /** The error behind this one (kept for logs, never shown to the caller). */
  cause?: unknown;
  /** When the caller may retry, in seconds (rate limits, throttling). */
  retryAfterSeconds?: number;
}

export class AppError extends Error {
  readonly details?: ErrorDetails;
  readonly retryAfterSeconds?: number;

  constructor(
    readonly kind: ErrorKind,
    readonly code: string,
    message: string,
    options: AppErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.details = options.details;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  /** The parameter at fault, if any. */
  get parameter(): string | undefined {
    return this.details?.parameter;
  }

  /** True when the caller can fix it by changing the request (retrying the same request will not help). */
  get isCallerFault(): boolean {
    return CALLER_FAULTS.has(this.kind);
  }
}

/** A parameter is missing or invalid; `parameter` names it. */
export class InvalidInputError extends AppError {
  constructor(message: string, parameter?: string, code = 'invalid_parameter', details?: ErrorDetails) {
    super('invalid_input', code, message, { details: parameter === undefined ? details : { ...details, parameter } });
  }
}

export class UnauthenticatedError extends AppError {
  constructor(message = 'A valid API key is required: send it as X-API-Key or Authorization: Bearer.') {
    super('unauthenticated', 'unauthorized', message);
  }
}

/** What a caller who put an API key in the URL is told (also by the gateway and the WAF, which cannot name the parameter). */
export const KEY_IN_URL_MESSAGE =
  'An API key was seen in the URL. URLs are kept in logs, proxies and browser history, so treat that key as exposed and rotate it: create a new key, then revoke this one. Send keys only as X-API-Key or Authorization: Bearer.';

/** An API key in the query string: refused even beside a valid header, and the caller is told to rotate it. */
export class KeyInUrlError extends AppError {
  constructor(parameter?: string) {
    super('unauthenticated', 'unauthorized', KEY_IN_URL_MESSAGE, { details: parameter === undefined ? undefined : { parameter } });
  }
}

export class ForbiddenError extends AppError {
  constructor(message = 'This API key may not access that resource.', details?: ErrorDetails, code = 'forbidden') {
    super('forbidden', code, message, { details });
  }
}

export class NotFoundError extends AppError {
  constructor(message: string, details?: ErrorDetails) {
    super('not_found', 'not_found', message, { details });
  }
}

export class ConflictError extends AppError {
  constructor(message: string, details?: ErrorDetails) {
    super('conflict', 'conflict', message, { details });
  }
}

export class RateLimitedError extends AppError {
  constructor(message: string, retryAfterSeconds: number) {
    super('rate_limited', 'rate_limited', message, { retryAfterSeconds });
  }
}

export class InternalError extends AppError {
  constructor(message = 'An unexpected error occurred. Quote the request id when you contact support.', cause?: unknown) {
    super('internal', 'internal_error', message, { cause });
  }
}

/**
 * A stored item does not have the shape its entity declares (shared/data/entity.ts): written
 * by another version, or damaged. Ours, not the caller's: a 500 with the usual message; the
 * cause says which entity and which attributes, for the log (no values: they may be personal).
 */
export class CorruptItemError extends InternalError {
  constructor(mismatch: string) {
    super(undefined, new Error(mismatch));
  }
}

/** The chat network answered with an error we cannot map to the caller's input. */
export class UpstreamError extends AppError {
  constructor(message: string, details?: ErrorDetails, cause?: unknown) {
    super('upstream', 'chat_network_error', message, { details, cause });
  }
}

/** A dependency is unavailable or throttling; safe to retry later. */
export class UnavailableError extends AppError {
  constructor(message = 'The service is busy. Retry shortly.', options: { code?: string; retryAfterSeconds?: number; cause?: unknown } = {}) {
    super('unavailable', options.code ?? 'service_unavailable', message, options);
  }
}
