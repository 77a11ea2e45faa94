import { describe, expect, it } from 'vitest';
import { slidingWindowCounter } from '../../src/core/algorithms/sliding-window-counter.js';
import { windowOf } from '../../src/core/limit.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { memoryStore } from '../../src/stores/memory.js';

/**
 * Module doc of `sliding-window-counter`: "`previous` is the count of the window just before
 * `start`" and `estimate = previous · (1 − elapsed / windowMs) + current`. A limit stated as a
 * bucket (README: "every algorithm reads either") often has a window that is not a whole number of
 * ms: `{ rate: 3, burst: 1 }` is `{ limit: 1, windowMs: 1000 / 3 }`. The roll-over test compares
 * the stored start with `start − windowMs`, which in floating point is not always the previous
 * window's start as it was computed (`(index − 1) · windowMs`): for about a third of the windows
 * the previous window's count is dropped and the key reads as fresh at the window boundary.
 */
const limit = { algorithm: 'sliding-window-counter' as const, ...windowOf({ rate: 3, burst: 1 }) };

describe('sliding-window-counter: the previous window weighs on the estimate', () => {
  it('refuses at the start of the next window a full quota spent 1 ms before (window of 1000/3 ms)', () => {
    expect(limit.windowMs).toBe(1000 / 3);
    // 999 lies in window 2 (start 666.67), 1000 starts window 3: estimate = 1 · (1 − 0) + 0 = 1.
    const spent = slidingWindowCounter.take(undefined, limit, 999, 1);
    expect(spent.decision.allowed).toBe(true);
    const next = slidingWindowCounter.take(spent.state, limit, 1000, 1);
    expect(next.decision.allowed).toBe(false);
  });

  it('holds for every window boundary, through the memory store', async () => {
    const clock = new ManualClock();
    const store = memoryStore({ clock });
    const dropped: number[] = [];
    for (let index = 1; index <= 30; index++) {
      const key = `k${index}`;
      const boundary = Math.ceil(index * limit.windowMs);
      // The last whole ms of window index − 1, then the first of window index.
      await clock.advance(boundary - 1 - clock.now());
      if (Math.floor(clock.now() / limit.windowMs) !== index - 1) continue;
      expect((await store.take(key, limit, 1)).allowed).toBe(true);
      await clock.advance(1);
      // previous = 1 with (nearly) all its weight left: 1 + 1 > 1.
      if ((await store.take(key, limit, 1)).allowed) dropped.push(index);
    }
    expect(dropped).toEqual([]);
  });
});
