import type { RateLimitClass } from './routes';

/** Per-minute request limits per API user, configurable per deployment (RATE_LIMIT_<CLASS> env). */
export const DEFAULT_RATE_LIMITS: Record<RateLimitClass, number> = {
  api_read: 120,
  api_automation_trigger: 20,
  api_write: 300,
};

export function rateLimitFor(rateClass: RateLimitClass): number {
  const configured = Number(process.env[`RATE_LIMIT_${rateClass.toUpperCase()}`]);
  return Number.isInteger(configured) && configured > 0 ? configured : DEFAULT_RATE_LIMITS[rateClass];
}

/** Largest request body accepted, in bytes (API Gateway itself allows 10 MB). */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * Receives of one queue message before it moves to the dead-letter queue: the stack's
 * `maxReceiveCount` on every queue (infra/data.ts), the local queues' limit, and the
 * automation runner's last try (on its last receive a step fails the execution instead
 * of throwing).
 */
export const MAX_RECEIVES = 5;
