import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { DEFAULT_RATE_LIMITS, rateLimitSetting } from '../../shared/config';
import type { RateLimitClass } from '../../shared/routes';
import type { ApiResponse, CallOptions, Handler } from '../support/api';

/**
 * Shared helpers of the reliability suite. They import nothing that opens the data
 * layer, so a test file may point DYNAMODB_ENDPOINT at a private store first.
 */

/** Rate limits high enough that the limiter is never what a reliability test measures. */
export function liftRateLimits(): () => void {
  const names = (Object.keys(DEFAULT_RATE_LIMITS) as RateLimitClass[]).map(rateLimitSetting);
  const previous = names.map((name) => process.env[name]);
  for (const name of names) process.env[name] = '1000000';
  return () => names.forEach((name, i) => (previous[i] === undefined ? delete process.env[name] : (process.env[name] = previous[i])));
}

/** No test of this suite may reach the real chat network: a dead loopback port stands in. */
export function isolateChatNetwork(): void {
  process.env.GRAPH_API_BASE_URL ??= 'http://127.0.0.1:9/v21.0';
  process.env.GRAPH_API_TIMEOUT_MS ??= '500';
}

export const HANG_MS = 5_000;

/** Calls a handler and fails when it takes longer than {@link HANG_MS} ("never a hang"). */
export async function callWithin(
  callApi: (handler: Handler, options: CallOptions) => Promise<ApiResponse>,
  handler: Handler,
  options: CallOptions,
): Promise<ApiResponse> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${HANG_MS} ms: ${JSON.stringify(options).slice(0, 300)}`)), HANG_MS);
  });
  try {
    return await Promise.race([callApi(handler, options), hang]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Below 500. A request accepted whole may reach the chat network (chat/media/upload calls it
 * at once), and a dead loopback port stands in for it here (isolateChatNetwork): its 502 is
 * then the right answer. A test that knows a request was refused says `acceptedWhole: false`.
 */
export function expectNoServerError(response: ApiResponse, context: string, { acceptedWhole }: { acceptedWhole: boolean } = { acceptedWhole: true }): void {
  const reachedDeadNetwork = acceptedWhole && response.status === 502 && response.body.error === 'chat_network_error';
  expect(reachedDeadNetwork || response.status < 500, `${response.status} ${context}`).toBe(true);
}

/** The envelope and the headers every handler response carries, and no secret in it. */
export function expectEnvelope(response: ApiResponse): void {
  expect(response.headers['Cache-Control'], 'Cache-Control').toBe('no-store');
  expect(response.headers['X-Content-Type-Options'], 'X-Content-Type-Options').toBe('nosniff');
  expect(response.headers['X-Request-Id'], 'X-Request-Id').toEqual(expect.any(String));
  expect(String(response.headers['Content-Type'])).toMatch(/^application\/json/);
  expect(typeof response.body.success).toBe('boolean');
  // No answer, success or error, carries an API key or a chat-network access token.
  expect(JSON.stringify(response.body)).not.toMatch(/wsk_[A-Za-z0-9_-]{20}|\bEAA[A-Za-z0-9]{12}/);
  if (response.status >= 400) {
    expect(response.body.success).toBe(false);
    expect(response.body.error).toMatch(/^[a-z_]+$/);
    expect(typeof response.body.message).toBe('string');
  } else expect(response.body.success).toBe(true);
}

/** Keeps counts for docs/RELIABILITY.md. */
export class Tally {
  readonly counts: Record<string, number> = {};
  add(name: string, n = 1): void {
    this.counts[name] = (this.counts[name] ?? 0) + n;
  }
  get(name: string): number {
    return this.counts[name] ?? 0;
  }
}

/** A value with a random suffix, for values that must be findable (and attributable) later. */
export const unique = (prefix: string) => `${prefix}${randomBytes(6).toString('hex')}`;
