import type { Principal } from '../auth/principal';
import { clock } from '../clock';
import { rateLimitFor } from '../config';
import { countRequest, RATE_WINDOW_MS } from '../data/rate-limits';
import type { RateLimitClass } from '../routes';

/** Whose allowance a request counts against: an API user (an API key's, or a portal user's). */
export type ApiUserRef = Pick<Principal, 'workspaceId' | 'userId'>;

export interface RateLimitVerdict {
  allowed: boolean;
  rateClass: RateLimitClass;
  limit: number;
  remaining: number;
  /** Seconds until the window resets (at least 1). */
  resetSeconds: number;
  windowSeconds: number;
}

/**
 * Exact per-minute limits per API user (not per key, not per IP): one atomic counter
 * update per request, which never lets concurrent requests overshoot.
 */
export async function takeRequest(principal: ApiUserRef, rateClass: RateLimitClass): Promise<RateLimitVerdict> {
  const limit = rateLimitFor(rateClass);
  const now = clock.now();
  const window = await countRequest(principal.workspaceId, principal.userId, rateClass, limit, now);
  const resetSeconds = Math.max(1, Math.ceil((window.windowStart + RATE_WINDOW_MS - now) / 1000));
  return { allowed: window.allowed, rateClass, limit, remaining: Math.max(0, limit - window.count), resetSeconds, windowSeconds: RATE_WINDOW_MS / 1000 };
}
