/**
 * A key's quota shared through a store: a call costing more than the spaced booking bucket's burst
 * of 2 books its whole cost from the store, and the local fallback starts empty whenever the store
 * starts failing, however long after the key was made.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { memoryStore } from '../../src/stores/memory.js';
import type { RateLimitStore } from '../../src/stores/store.js';
import { fakeFetch, runUntilSettled } from '../client/fake-server.js';

const URL_A = 'http://127.0.0.1:9/a';

describe('shared quota: a call costing more than the booking burst of 2', () => {
  it('books a valid cost (≤ burst) from the store instead of counting it as a store failure', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, () => ({ status: 200 }));
    const inner = memoryStore({ clock });
    const errors: unknown[] = [];
    const store: RateLimitStore = {
      take: (k, l, c) => inner.take(k, l, c),
      reserve: (k, l, c) =>
        inner.reserve(k, l, c).catch((e: unknown) => {
          errors.push(e);
          throw e;
        }),
      holdGate: (k, ms) => inner.holdGate(k, ms),
      gateWait: (k) => inner.gateWait(k),
    };
    // rate 100/s, burst 20: a call of 5 requests is a valid cost (≤ burst), and the store is up.
    const fetch = createFetch({ fetch: server.fetch, clock, store, rate: 100, burst: 20, cost: () => 5 });
    const results = await runUntilSettled(clock, [fetch(URL_A)], 5);
    expect(results[0]!.status).toBe('fulfilled');
    // Before: the store refused the booking (the shared bucket's burst is 2) with InvalidCostError,
    // which counted as a store failure and marked a healthy store down for 1 s.
    expect(errors.map((e) => (e as { code?: string }).code)).toEqual([]);
    expect(fetch.stats()[0]!.shared).toEqual({ degraded: false, failures: 0 });
  });
});

describe('shared quota: the local fallback', () => {
  it('starts empty when the store first fails, however long after the key was created', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, () => ({ status: 200 }));
    const inner = memoryStore({ clock });
    const state = { down: false };
    const guard = <T>(op: () => Promise<T>): Promise<T> =>
      state.down ? Promise.reject(new Error('ECONNREFUSED')) : op();
    const store: RateLimitStore = {
      take: (k, l, c) => guard(() => inner.take(k, l, c)),
      reserve: (k, l, c) => guard(() => inner.reserve(k, l, c)),
      holdGate: (k, ms) => guard(() => inner.holdGate(k, ms)),
      gateWait: (k) => guard(() => inner.gateWait(k)),
    };
    const fetch = createFetch({ fetch: server.fetch, clock, store, rate: 100, burst: 20 });
    await runUntilSettled(clock, [fetch(URL_A)], 5); // the key's lane (and its fallback) exist from t = 0
    await clock.advance(10_000);
    state.down = true;
    const start = clock.now();
    await runUntilSettled(
      clock,
      Array.from({ length: 10 }, () => fetch(URL_A)),
      5,
    );
    const sentAt = server.seen.slice(1).map((s) => s.at - start);
    // "The fallback starts empty: when the store first fails, the shared bucket may just have been
    // drained, and a full local bucket in every process would add a burst on top of it."
    expect(sentAt.filter((t) => t === 0).length).toBeLessThanOrEqual(1);
  });
});
