/**
 * The one place where the service's typed errors (shared/errors) become HTTP: a status
 * per kind, and any error we did not raise ourselves mapped to a safe answer.
 */
import { AppError, InternalError, InvalidInputError, UnavailableError, type ErrorKind } from '../errors';

const STATUS_OF_KIND: Readonly<Record<ErrorKind, number>> = {
  invalid_input: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  rate_limited: 429,
  internal: 500,
  upstream: 502,
  unavailable: 503,
};

/** The HTTP status that answers an error of this kind. */
export function statusOf(error: AppError): number {
  return STATUS_OF_KIND[error.kind];
}

/** Errors of the AWS SDK that mean "busy or briefly unavailable", after its own retries. */
const THROTTLING_ERRORS = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'TimeoutError',
  'ServiceUnavailable',
  'InternalServerError',
]);

/**
 * Maps any error to a typed AppError. Errors we did not raise ourselves become a 500
 * (or 503 for a throttled or unavailable store) whose message never carries the
 * original text, since AWS error messages name tables, keys and accounts; the original
 * stays as `cause` for the log.
 */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const { statusCode, name } = (error ?? {}) as { statusCode?: number; name?: string };
  // middy's own body parser answers 415/422; the envelope has one code for bad bodies.
  if (statusCode === 415 || statusCode === 422) {
    return new InvalidInputError('The request body is not valid JSON.', 'body', 'invalid_json');
  }
  if (name && THROTTLING_ERRORS.has(name)) return new UnavailableError(undefined, { retryAfterSeconds: 1, cause: error });
  return new InternalError(undefined, error);
}
