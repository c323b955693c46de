import { clock } from '../../clock';
import { rateLimitFor } from '../../config';
import { countRequest, RATE_WINDOW_MS } from '../../data/rate-limits';
import type { ApiRequest } from '../context';
import { RateLimitedError } from '../../errors';

/**
 * Exact per-minute limits per API user (not per key, not per IP): one atomic
 * counter update per request. Success and 429 responses both carry the IETF draft
 * `RateLimit-Policy`/`RateLimit` headers and the older `RateLimit-*` triple.
 */
export function rateLimit() {
  return {
    before: async function countAgainstLimit(request: ApiRequest) {
      const { api } = request.context;
      const principal = api.principal!;
      const rateClass = api.route.rateLimitClass;
      const limit = rateLimitFor(rateClass);
      const now = clock.now();
      const window = await countRequest(principal.workspaceId, principal.userId, rateClass, limit, now);
      const resetSeconds = Math.max(1, Math.ceil((window.windowStart + RATE_WINDOW_MS - now) / 1000));
      const remaining = Math.max(0, limit - window.count);
      Object.assign(api.headers, {
        'RateLimit-Policy': `"${rateClass}";q=${limit};w=${RATE_WINDOW_MS / 1000}`,
        RateLimit: `"${rateClass}";r=${remaining};t=${resetSeconds}`,
        'RateLimit-Limit': String(limit),
        'RateLimit-Remaining': String(remaining),
        'RateLimit-Reset': String(resetSeconds),
      });
      if (!window.allowed) {
        throw new RateLimitedError(`Rate limit of ${limit} requests per minute for ${rateClass} exceeded. Retry after ${resetSeconds} seconds.`, resetSeconds);
      }
    },
  };
}
