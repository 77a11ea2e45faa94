import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { resolvePolicy } from '../../src/server/policy.js';
import { memoryStore } from '../../src/stores/memory.js';

/**
 * `Decision.retryAfterMs` (`src/stores/store.ts`): "the exact ms until a retry of the same cost is
 * admitted"; README "Algorithms and their bounds": "a retry of the same cost at
 * `now + retryAfterMs` is admitted". The sliding log computes `time + windowMs − now` unrounded, and
 * then tests `now' − time < windowMs`: with a fractional clock reading (the server's clock is
 * `performance.now()`) or a fractional window (any `{ rate, burst }` policy whose
 * `burst · 1000 / rate` is not whole) the float sum lands a hair short of the entry's expiry, and
 * the retry is refused — with `retryAfterMs: 0` and `resetMs: 0`, a refusal that says "now".
 */
describe('sliding log at fractional times', () => {
  it('admits a retry at now + retryAfterMs on a clock reading with a fraction (1 per second)', async () => {
    const clock = new ManualClock(1000.035);
    const store = memoryStore({ clock });
    const limit = { algorithm: 'sliding-log' as const, limit: 1, windowMs: 1000 };
    expect(store.takeNow!('k', limit, 1).allowed).toBe(true);
    const refused = store.takeNow!('k', limit, 1);
    expect(refused.allowed).toBe(false);
    await clock.advance(refused.retryAfterMs);
    expect(store.takeNow!('k', limit, 1).allowed).toBe(true);
  });

  it('admits a retry at now + retryAfterMs under `{ rate: 3, burst: 1 }`', async () => {
    const clock = new ManualClock(1000);
    const store = memoryStore({ clock });
    const { limit } = resolvePolicy({ rate: 3, burst: 1 }, 'sliding-log'); // windowMs 333.33…
    expect(store.takeNow!('k', limit, 1).allowed).toBe(true);
    const refused = store.takeNow!('k', limit, 1);
    expect(refused.allowed).toBe(false);
    await clock.advance(refused.retryAfterMs);
    const retry = store.takeNow!('k', limit, 1);
    expect(retry.allowed).toBe(true);
  });

  it('never refuses with a retryAfterMs of 0', async () => {
    const clock = new ManualClock(1000.035);
    const store = memoryStore({ clock });
    const limit = { algorithm: 'sliding-log' as const, limit: 1, windowMs: 1000 };
    store.takeNow!('k', limit, 1);
    await clock.advance(store.takeNow!('k', limit, 1).retryAfterMs);
    const decision = store.takeNow!('k', limit, 1);
    expect(decision.allowed || decision.retryAfterMs > 0).toBe(true);
  });
});
