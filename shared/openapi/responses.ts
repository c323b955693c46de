import * as v from 'valibot';
import { described } from '../schema/docs';
import { component, type ErrorStatus } from '../schema/responses';

/**
 * What every answer shares, whatever the endpoint: the envelope's pagination, the error
 * statuses with their codes, and the failure envelope. What each endpoint answers in
 * `data` is declared beside its parameters (the `response` its function file exports,
 * shared/schema/responses.ts); nothing here is written per endpoint.
 */

/** The `pagination` of a page-numbered list's envelope. */
export const Pagination = component(
  'Pagination',
  v.strictObject({
    page: described(v.pipe(v.number(), v.integer()), 'This page (from 1); with a `cursor`, the page of `limit` its first item lies on', 1),
    limit: described(v.pipe(v.number(), v.integer()), 'Page size used (at most 200)', 50),
    total: described(v.pipe(v.number(), v.integer()), 'Number of all matches', 1),
    pages: described(v.pipe(v.number(), v.integer()), 'Number of pages', 1),
    nextCursor: described(
      v.nullable(v.string()),
      'Pass as `cursor` for the page after this one (the same filters); null after the last item. A page whose items would pass 5 MB of answer ends early, and only this cursor continues it exactly (`page` + 1 would skip what it left out).',
      'eyJjIjoiY2hfZGVtbyJ9.a1b2c3d4e5f6g7h8',
    ),
  }),
);

/** Error statuses every endpoint may answer (the authorizer, the limiter, validation, the gateway's size limits, the store). */
export const COMMON_ERROR_STATUSES = [400, 401, 403, 413, 429, 500, 503] as const;

export interface ErrorStatusDoc {
  /** Name of the response in `components.responses`. */
  name: string;
  description: string;
  /** Error codes this status carries, the first one used in the example. */
  codes: readonly string[];
  example: { error: string; message: string; details?: Record<string, unknown> };
}

export const ERROR_STATUS_DOCS: Record<ErrorStatus, ErrorStatusDoc> = {
  400: {
    name: 'BadRequest',
    description:
      'A parameter is missing, invalid or not one the endpoint defines (`details.parameter` names it; for an unknown one the message suggests the closest defined name), the body is not JSON, or no channel could be chosen.',
    codes: [
      'invalid_parameter',
      'missing_parameter',
      'unknown_parameter',
      'channel_required',
      'invalid_json',
      'payload_too_large',
      'unsupported_content_type',
      'outside_session_window',
      'invalid_request',
    ],
    example: {
      error: 'invalid_parameter',
      message: 'Invalid parameter color: must be # followed by six hex digits, e.g. #FF8800.',
      details: { parameter: 'color' },
    },
  },
  401: {
    name: 'Unauthorized',
    description: 'The API key is missing, unknown, revoked or expired, or was sent in the URL or body.',
    codes: ['unauthorized'],
    example: { error: 'unauthorized', message: 'A valid API key is required: send it as X-API-Key or Authorization: Bearer.' },
  },
  403: {
    name: 'Forbidden',
    description:
      'The key may not use that channel or resource (also for ids of other workspaces and unknown ids), or the endpoint needs an admin key and this is a team key, or the recipient has opted out (`contact_opted_out`: nothing was sent).',
    codes: ['forbidden', 'contact_opted_out'],
    example: { error: 'forbidden', message: 'This API key may not use that channel.', details: { parameter: 'channelId' } },
  },
  404: {
    name: 'NotFound',
    description: 'The resource does not exist in this channel.',
    codes: ['not_found'],
    example: { error: 'not_found', message: 'No such template in this channel.' },
  },
  409: {
    name: 'Conflict',
    description: 'The apiReference was already used for this recipient with other parameters.',
    codes: ['conflict'],
    example: { error: 'conflict', message: 'This apiReference was already used for this recipient with other parameters.' },
  },
  413: {
    name: 'PayloadTooLarge',
    description:
      "The request is larger than an invocation carries (about 6 MB with the request around the body; API Gateway takes up to 10 MB): refused by the gateway before the endpoint runs. A body over the endpoint's own limit is a 400 `payload_too_large`.",
    codes: ['payload_too_large'],
    example: {
      error: 'payload_too_large',
      message: 'The request is too large: endpoints take bodies up to 64 KiB (contacts/import 1024 KiB).',
      details: { parameter: 'body' },
    },
  },
  429: {
    name: 'TooManyRequests',
    description: 'The rate limit of the route class is exhausted for this API user; retry after `Retry-After` seconds.',
    codes: ['rate_limited'],
    example: { error: 'rate_limited', message: 'Rate limit of 120 requests per minute for api_read exceeded. Retry after 42 seconds.' },
  },
  500: {
    name: 'InternalError',
    description: 'An unexpected error; quote `X-Request-Id` to support.',
    codes: ['internal_error'],
    example: { error: 'internal_error', message: 'An unexpected error occurred. Quote the request id when you contact support.' },
  },
  502: {
    name: 'BadGateway',
    description: 'The chat network refused or failed the request in a way the caller cannot fix by changing parameters.',
    codes: ['chat_network_error'],
    example: { error: 'chat_network_error', message: 'The chat network did not accept the message.' },
  },
  503: {
    name: 'ServiceUnavailable',
    description: 'A dependency is busy or unavailable; safe to retry (after `Retry-After` seconds when given).',
    codes: ['service_unavailable'],
    example: { error: 'service_unavailable', message: 'The service is busy. Retry shortly.' },
  },
};

/** The failure envelope. */
export const ErrorResponse = v.strictObject({
  success: v.literal(false),
  error: described(v.pipe(v.string(), v.regex(/^[a-z][a-z0-9_]*$/)), 'Stable snake_case error code to branch on', 'invalid_parameter'),
  message: v.optional(described(v.string(), 'Human-readable detail', 'Missing required parameter: phoneNumber.')),
  details: v.optional(
    v.pipe(
      v.looseObject({ parameter: v.optional(described(v.string(), 'The parameter at fault (400, 403)', 'phoneNumber')) }),
      v.description('More about the failure: the parameter at fault, unknown names, …'),
    ),
  ),
});
