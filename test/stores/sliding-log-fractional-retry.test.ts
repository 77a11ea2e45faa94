/**
 * README ("Algorithms and their bounds"): `retryAfterMs` is exact — "a retry of the same cost at
 * `now + retryAfterMs` is admitted and 1 ms earlier is refused"; the store interface: `resetMs` and
 * `retryAfterMs` are ms, 0 only when allowed. Every other algorithm (and the sliding log's Lua,
 * through `exact_wait`) answers the smallest whole ms the real predicate admits. The memory sliding
 * log answers `time + windowMs − now` unrounded: on a fractional clock (the default `systemClock`
 * is `performance.now()`) and a window that is not a whole number of ms (`{ rate: 3, burst: 1 }`
 * is `windowMs: 1000 / 3`) its wait is a fraction whose sum with `now` rounds below the entry's
 * expiry, so the retry it names is refused — and that refusal says `retryAfterMs: 0`.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { memoryStore } from '../../src/stores/memory.js';
import type { StoreLimit } from '../../src/stores/store.js';

describe('memory store, sliding log on a fractional clock', () => {
  it('answers whole-ms retryAfterMs and resetMs, as the Redis store does', async () => {
    const clock = new ManualClock(1000);
    const store = memoryStore({ clock });
    const limit: StoreLimit = { algorithm: 'sliding-log', limit: 1, windowMs: 1000 / 3 };
    await clock.advance(0.125);
    expect(store.takeNow!('k', limit, 1).allowed).toBe(true);
    await clock.advance(1);
    const refused = store.takeNow!('k', limit, 1);
    expect(refused.allowed).toBe(false);
    expect(Number.isInteger(refused.retryAfterMs)).toBe(true);
    expect(Number.isInteger(refused.resetMs)).toBe(true);
  });

  it('a retry at now + retryAfterMs is admitted', async () => {
    const clock = new ManualClock(1000);
    const store = memoryStore({ clock });
    const limit: StoreLimit = { algorithm: 'sliding-log', limit: 1, windowMs: 1000 / 3 };
    await clock.advance(0.125);
    store.takeNow!('k', limit, 1);
    await clock.advance(1);
    const refused = store.takeNow!('k', limit, 1);
    await clock.advance(refused.retryAfterMs);
    const retry = store.takeNow!('k', limit, 1);
    expect(retry.allowed).toBe(true);
  });
});
