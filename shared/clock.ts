import { config } from './config';

/**
 * The one clock the service reads. Two readings: `now`, the service's time (what is
 * recorded and compared: rate-limit windows, the 24-hour session window, key expiry),
 * which tests freeze or shift instead of waiting for real time; and `realNow`, the real
 * clock, never frozen or shifted, for deadlines and durations of real work (a Lambda
 * timeout, an outbound attempt, a wait for a concurrent request) and the time logs and
 * metrics are stamped with.
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
  /** Milliseconds since the epoch on the real clock (deadlines, durations, log and metric stamps). */
  realNow(): number {
    return Date.now();
  },
  /** Test hook: stop the clock at `epochMs` (undefined lets it run again). */
  freeze(epochMs: number | undefined): void {
    frozenAt = epochMs;
  },
  /** Test hook: whether the clock is stopped (shifting it then changes nothing until it runs again). */
  isFrozen(): boolean {
    return frozenAt !== undefined;
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
