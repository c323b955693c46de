/**
 * Typed errors, mapped to responses in one place (shared/http/middleware/envelope.ts).
 * Only errors with a status below 500 show their message to the caller.
 */
export interface ErrorDetails {
  parameter?: string;
  [key: string]: unknown;
}

export class HttpError extends Error {
  readonly expose: boolean;
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details?: ErrorDetails,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = new.target.name;
    this.expose = statusCode < 500;
  }
}

/** 400: a parameter is missing or invalid; `parameter` names it. */
export class BadRequestError extends HttpError {
  constructor(message: string, parameter?: string, code = 'invalid_parameter', details?: ErrorDetails) {
    super(400, code, message, parameter === undefined ? details : { ...details, parameter });
  }
}

export class UnauthorizedError extends HttpError {
  constructor(message = 'A valid API key is required: send it as X-API-Key or Authorization: Bearer.') {
    super(401, 'unauthorized', message);
  }
}

export class ForbiddenError extends HttpError {
  constructor(message = 'This API key may not access that resource.', details?: ErrorDetails) {
    super(403, 'forbidden', message, details);
  }
}

export class NotFoundError extends HttpError {
  constructor(message: string, details?: ErrorDetails) {
    super(404, 'not_found', message, details);
  }
}

export class ConflictError extends HttpError {
  constructor(message: string, details?: ErrorDetails) {
    super(409, 'conflict', message, details);
  }
}

export class TooManyRequestsError extends HttpError {
  constructor(message: string, headers: Record<string, string>) {
    super(429, 'rate_limited', message, undefined, headers);
  }
}

export class InternalError extends HttpError {
  constructor(message = 'An unexpected error occurred. Quote the request id when you contact support.') {
    super(500, 'internal_error', message);
  }
}

/** 502: the chat network answered with an error we cannot map to the caller's input. */
export class BadGatewayError extends HttpError {
  constructor(message: string, details?: ErrorDetails) {
    super(502, 'chat_network_error', message, details);
  }
}

/** 503: a dependency is unavailable or throttling; safe to retry later. */
export class ServiceUnavailableError extends HttpError {
  constructor(message = 'The service is busy. Retry shortly.', headers?: Record<string, string>, code = 'service_unavailable') {
    super(503, code, message, undefined, headers);
  }
}
