/**
 * When a failed delivery is tried again, counted from the previous attempt: 5 s, 30 s,
 * 2 min, 10 min, 30 min, 2 h, 6 h, 12 h, 24 h (about two days in all), then `failed`.
 * WEBHOOK_RETRY_SCHEDULE (comma-separated seconds, e.g. `1,1,2`) shortens it for tests
 * and demos.
 */
export const DEFAULT_RETRY_SCHEDULE_SECONDS: readonly number[] = [5, 30, 120, 600, 1800, 7200, 21600, 43200, 86400];

/** Parses a schedule; anything but a list of positive finite numbers is refused by name. */
export function parseRetrySchedule(text: string | undefined): readonly number[] {
  if (text === undefined || text.trim() === '') return DEFAULT_RETRY_SCHEDULE_SECONDS;
  const steps = text.split(',').map((part) => Number(part.trim()));
  if (steps.some((step) => !Number.isFinite(step) || step <= 0)) {
    throw new Error(`WEBHOOK_RETRY_SCHEDULE must be comma-separated positive seconds, e.g. "1,1,2"; got "${text}"`);
  }
  return steps;
}

/** Seconds to wait before the attempt after attempt number `attempt` (1-based), or undefined when none is left. */
export function nextRetryDelaySeconds(schedule: readonly number[], attempt: number): number | undefined {
  return schedule[attempt - 1];
}
