import { afterEach, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../../src/core/clock.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { dateTextOf } from '../../src/server/date-text.js';

describe('the Date text of a limiter', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('on the system clock: formatted once, forgotten by a timer at the next second', () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 0, 1, 12, 0, 0, 500) });
    const date = dateTextOf(systemClock);
    expect(date.now()).toBe('Thu, 01 Jan 2026 12:00:00 GMT');
    vi.advanceTimersByTime(499);
    expect(date.now()).toBe('Thu, 01 Jan 2026 12:00:00 GMT');
    vi.advanceTimersByTime(1);
    expect(date.now()).toBe('Thu, 01 Jan 2026 12:00:01 GMT');
  });

  it('on any other clock: from its wallNow(), and from a reading already taken', () => {
    const clock = new ManualClock();
    const date = dateTextOf(clock);
    expect(date.now()).toBe(new Date(clock.wallNow()).toUTCString());
    expect(date.at(Date.UTC(2030, 5, 1, 8, 30, 15, 999))).toBe('Sat, 01 Jun 2030 08:30:15 GMT');
  });
});
