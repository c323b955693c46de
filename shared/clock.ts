import { config } from './config';

/**
 * The one clock the service reads. Tests freeze or shift it (rate-limit windows,
 * the 24-hour session window, key expiry) instead of waiting for real time.
 */
// The local stack may start with a shifted clock (CLOCK_OFFSET_MS), for end-to-end tests of time windows.
let offsetMs = config.clockOffsetMs();
let frozenAt: number | undefined;

export const clock = {
  /** Milliseconds since the epoch. */
  now(): number {
    return frozenAt ?? Date.now() + offsetMs;
  },
  nowIso(): string {
    return new Date(clock.now()).toISOString();
  },
  /** Test hook: stop the clock at `epochMs` (undefined lets it run again). */
  freeze(epochMs: number | undefined): void {
    frozenAt = epochMs;
  },
  /** Test hook: shift the running clock by `ms`. */
  shift(ms: number): void {
    offsetMs += ms;
  },
  reset(): void {
    offsetMs = 0;
    frozenAt = undefined;
  },
};
