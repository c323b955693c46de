import { takeRequest } from '../../domain/rate-limits';
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
      const { allowed, rateClass, limit, remaining, resetSeconds, windowSeconds } = await takeRequest(api.principal!, api.route.rateLimitClass);
      Object.assign(api.headers, {
        'RateLimit-Policy': `"${rateClass}";q=${limit};w=${windowSeconds}`,
        RateLimit: `"${rateClass}";r=${remaining};t=${resetSeconds}`,
        'RateLimit-Limit': String(limit),
        'RateLimit-Remaining': String(remaining),
        'RateLimit-Reset': String(resetSeconds),
      });
      if (!allowed) {
        throw new RateLimitedError(`Rate limit of ${limit} requests per minute for ${rateClass} exceeded. Retry after ${resetSeconds} seconds.`, resetSeconds);
      }
    },
  };
}
