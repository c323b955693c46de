import type { APIGatewayProxyResult } from 'aws-lambda';
import type { AppError } from '../errors';
import { statusOf } from './errors';

/** What an endpoint returns (its `data` as its response declares it); the envelope middleware adds `success: true`. */
export interface EndpointResult<Data = unknown> {
  data: Data;
  message?: string;
  pagination?: { page: number; limit: number; total: number; pages: number };
  total?: number;
  /** Cursor-paged lists: the cursor of the next page, or null. */
  nextCursor?: string | null;
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

/** The failure envelope: status from the error's kind, `Retry-After` when the error says when to retry. */
export function errorResponse(error: AppError, headers: Record<string, string>): APIGatewayProxyResult {
  const body: Record<string, unknown> = { success: false, error: error.code, message: error.message };
  if (error.details) body.details = error.details;
  const retryAfter = error.retryAfterSeconds === undefined ? undefined : { 'Retry-After': String(error.retryAfterSeconds) };
  return { statusCode: statusOf(error), headers: { ...headers, ...retryAfter }, body: JSON.stringify(body) };
}
