import { takeRequest, type ApiUserRef } from '../../domain/rate-limits';
import type { RateLimitClass } from '../../routes';
import { RateLimitedError } from '../../errors';
import type { ApiRequest } from '../context';

/**
 * Counts the request against the API user's per-minute limit of the route's class.
 * Success and 429 responses both carry the IETF draft `RateLimit-Policy`/`RateLimit`
 * headers and the older `RateLimit-*` triple.
 */
export function rateLimit() {
  return {
    before: async function countAgainstLimit(request: ApiRequest) {
      const { api } = request.context;
      await countAgainstLimitOf(api.principal!, api.route.rateLimitClass, api.headers);
    },
  };
}

/** Counts one request of the user in the class, sets the RateLimit headers, and throws the 429 when over the limit. */
export async function countAgainstLimitOf(user: ApiUserRef, rateLimitClass: RateLimitClass, headers: Record<string, string>): Promise<void> {
  const { allowed, rateClass, limit, remaining, resetSeconds, windowSeconds } = await takeRequest(user, rateLimitClass);
  Object.assign(headers, {
    'RateLimit-Policy': `"${rateClass}";q=${limit};w=${windowSeconds}`,
    RateLimit: `"${rateClass}";r=${remaining};t=${resetSeconds}`,
    'RateLimit-Limit': String(limit),
    'RateLimit-Remaining': String(remaining),
    'RateLimit-Reset': String(resetSeconds),
  });
  if (!allowed) {
    throw new RateLimitedError(`Rate limit of ${limit} requests per minute for ${rateClass} exceeded. Retry after ${resetSeconds} seconds.`, resetSeconds);
  }
}
