import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_SCHEDULE_SECONDS, nextRetryDelaySeconds, parseRetrySchedule } from '../../shared/events/retry-schedule';

describe('delivery retry schedule', () => {
  it('defaults to 5 s, 30 s, 2 min, 10 min, 30 min, 2 h, 6 h, 12 h, 24 h: about two days, then failed', () => {
    // Act
    const schedule = parseRetrySchedule(undefined);

    // Assess
    expect(schedule).toEqual([5, 30, 120, 600, 1800, 7200, 21600, 43200, 86400]);
    expect(schedule.reduce((sum, step) => sum + step, 0) / 3600).toBeCloseTo(44.7, 1);
    expect(nextRetryDelaySeconds(schedule, 1)).toBe(5);
    expect(nextRetryDelaySeconds(schedule, DEFAULT_RETRY_SCHEDULE_SECONDS.length + 1)).toBeUndefined();
  });

  it('reads WEBHOOK_RETRY_SCHEDULE as comma-separated seconds and refuses anything else by name', () => {
    expect(parseRetrySchedule('1, 1,2')).toEqual([1, 1, 2]);
    expect(parseRetrySchedule('0.5')).toEqual([0.5]);
    for (const bad of ['1,,2', 'a', '1,-1', '0', 'Infinity']) expect(() => parseRetrySchedule(bad)).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
  });
});
