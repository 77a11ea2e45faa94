/**
 * README, "More than one process": "If the store fails, or is slow twice in a row ..., each worker
 * paces on its own at `rate / expectedWorkers` (so the fleet stays near the quota)"; `rate` is in
 * cost units ("sustained calls (cost units) per second"). A call that costs more than the
 * fallback's burst (`burst / expectedWorkers`) must still be booked at its whole cost there
 * (src/client/shared-quota.ts: `book` reserves `Math.min(cost, config.burst)` from the fallback).
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import type { RateLimitStore } from '../../src/stores/store.js';
import { fakeFetch, runUntilSettled } from './fake-server.js';

const URL_A = 'http://127.0.0.1:9/a';

describe('shared quota, store down: a call costing more than the fallback burst', () => {
  it('is paced at its whole cost: rate 40 units/s, 4 workers, calls of 4 units → one call per 400 ms', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, () => ({ status: 200 }));
    const down = () => Promise.reject(new Error('ECONNREFUSED'));
    const store: RateLimitStore = { take: down, reserve: down, holdGate: down, gateWait: down };
    // A valid cost (4 ≤ burst 8); the fallback is 10 units/s with a burst of 2.
    const fetch = createFetch({
      fetch: server.fetch,
      clock,
      store,
      rate: 40,
      burst: 8,
      expectedWorkers: 4,
      cost: () => 4,
    });
    const results = await runUntilSettled(
      clock,
      Array.from({ length: 6 }, () => fetch(URL_A)),
      5,
    );
    expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
    // The store failed (the fallback paced); `degraded` itself ends with the store's retry window.
    expect(fetch.stats()[0]!.shared!.failures).toBeGreaterThanOrEqual(1);
    const times = server.seen.map((s) => s.at);
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(400);
  });
});
