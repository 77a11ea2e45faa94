/**
 * Node fires a `setTimeout` longer than 2³¹−1 ms (~24.8 days) after 1 ms. The system clock's sleep
 * must wait the whole time anyway (a month-long gate, a daily cap's reset with a large
 * `maxRetryAfterMs`). Fake timers reproduce Node's overflow rule, so nothing really waits.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../../src/core/clock.js';

const DAY = 86_400_000;

describe('systemClock.sleep beyond the timer limit', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each([25 * DAY, 60 * DAY, 2 ** 31, 2 ** 31 - 1])('sleeps %d ms, not 1 ms', async (ms) => {
    let done = false;
    const sleeping = systemClock.sleep(ms).then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(ms - 1_001);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await sleeping;
    expect(done).toBe(true);
  });

  it('an abort ends a long sleep at once', async () => {
    const controller = new AbortController();
    const sleeping = systemClock.sleep(40 * DAY, controller.signal);
    await vi.advanceTimersByTimeAsync(25 * DAY);
    controller.abort(new Error('stop'));
    await expect(sleeping).rejects.toMatchObject({ name: 'AbortError' });
  });
});
