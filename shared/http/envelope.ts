import type { APIGatewayProxyResult } from 'aws-lambda';
import { HttpError, InternalError, ServiceUnavailableError } from './errors';

/** What an endpoint returns; the envelope middleware adds `success: true`. */
export interface EndpointResult {
  data: unknown;
  message?: string;
  pagination?: { page: number; limit: number; total: number; pages: number };
  total?: number;
}

/** Headers every response carries, success or failure. */
export function baseHeaders(requestId: string): Record<string, string> {
  return {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'X-Request-Id': requestId,
  };
}

export function successResponse(result: EndpointResult, headers: Record<string, string>): APIGatewayProxyResult {
  return { statusCode: 200, headers, body: JSON.stringify({ success: true, ...result }) };
}

const THROTTLING_ERRORS = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'TimeoutError',
  'ServiceUnavailable',
  'InternalServerError',
]);

/**
 * Maps any error to a typed HttpError. Errors we did not raise ourselves become a
 * 500 (or 503 for a throttled or unavailable store) whose message never carries the
 * original text: AWS error messages name tables, keys and accounts.
 */
export function toHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  const { statusCode, name } = (error ?? {}) as { statusCode?: number; name?: string };
  // middy's own body parser answers 415/422; the envelope has one code for bad bodies.
  if (statusCode === 415 || statusCode === 422) {
    return new HttpError(400, 'invalid_json', 'The request body is not valid JSON.', { parameter: 'body' });
  }
  if (name && THROTTLING_ERRORS.has(name)) return new ServiceUnavailableError(undefined, { 'Retry-After': '1' });
  return new InternalError();
}

export function errorResponse(error: HttpError, headers: Record<string, string>): APIGatewayProxyResult {
  const body: Record<string, unknown> = { success: false, error: error.code, message: error.message };
  if (error.details) body.details = error.details;
  return { statusCode: error.statusCode, headers: { ...headers, ...error.headers }, body: JSON.stringify(body) };
}
