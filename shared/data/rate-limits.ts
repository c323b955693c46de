import * as v from 'valibot';
import { update, when } from './client';
import { keys } from './keys';

export const RATE_WINDOW_MS = 60_000;

/** A window's count as the limiter's update returns it (`UPDATED_NEW`; windows carry no entity tag: only this update writes them). */
const WindowItem = v.object({ n: v.optional(v.number()) });

export interface WindowCount {
  allowed: boolean;
  /** Requests counted in this window, including this one when allowed. */
  count: number;
  windowStart: number;
}

/**
 * Counts one request in the caller's fixed one-minute window: a single UpdateItem
 * whose condition admits it only while the count is below the limit, so concurrent
 * requests can never overshoot (no read-then-write). Windows expire by TTL; nothing
 * depends on the deletion happening.
 */
export async function countRequest(workspaceId: string, userId: string, rateClass: string, limit: number, now: number): Promise<WindowCount> {
  const windowStart = now - (now % RATE_WINDOW_MS);
  const counted = await update(keys.rateLimitWindow(workspaceId, userId, rateClass, windowStart))
    .add('n', 1)
    .setIfNotExists('expiresAt', Math.ceil((windowStart + 2 * RATE_WINDOW_MS) / 1000))
    .when(when.or(when.notExists('n'), when.lt('n', limit)))
    .sendReturning(WindowItem, 'UPDATED_NEW');
  if (!counted) return { allowed: false, count: limit, windowStart };
  return { allowed: true, count: counted.n ?? 1, windowStart };
}
