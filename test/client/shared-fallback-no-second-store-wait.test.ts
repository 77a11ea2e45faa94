/**
 * A key's quota shared through a store that stops answering: the call whose booking timed out is
 * booked from the local fallback ("one slow answer only sends that one call to the fallback"), and
 * then, once its fallback units are due, asks the same store for the shared gate again
 * (src/client/shared-booking.ts: awaitBooking's `shared.gateWait()`), waiting a second store
 * timeout before it is sent. The module promises "No call waits on a store that is down for longer
 * than the store's own timeout (or this module's 1 s deadline)" (src/client/shared-quota.ts).
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { StoreTimeoutError } from '../../src/errors.js';
import type { RateLimitStore } from '../../src/stores/store.js';
import { fakeFetch, runUntilSettled } from './fake-server.js';

const URL_A = 'http://127.0.0.1:9/a';

/** A store whose every call times out after `ms` on the manual clock, as the Redis store's `commandTimeoutMs` does. */
function timingOutStore(clock: ManualClock, ms: number): RateLimitStore {
  const fail = async (key: string): Promise<never> => {
    await clock.sleep(ms);
    throw new StoreTimeoutError(key, ms, 'commandTimeoutMs');
  };
  return {
    take: (k) => fail(k),
    reserve: (k) => fail(k),
    holdGate: (k) => fail(k),
    gateWait: (k) => fail(k),
  };
}

/** A store that never answers (a custom store with no timeout of its own: the 1 s deadline applies). */
function hangingStore(): RateLimitStore {
  const never = () => new Promise<never>(() => {});
  return { take: never, reserve: never, holdGate: never, gateWait: never };
}

describe('shared quota: a call sent to the fallback by a slow store', () => {
  it('waits on the store no longer than its own timeout (Redis-like 100 ms), then at the fallback rate', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, () => ({ status: 200 }));
    // Fallback: 40/s ÷ 4 workers = 10/s, starting empty: the first unit is due 100 ms after the failure.
    const fetch = createFetch({
      fetch: server.fetch,
      clock,
      store: timingOutStore(clock, 100),
      rate: 40,
      burst: 8,
      expectedWorkers: 4,
    });
    const results = await runUntilSettled(clock, [fetch(URL_A)], 1);
    expect(results[0]!.status).toBe('fulfilled');
    // The booking times out at 100 ms; its fallback unit is due at 200 ms.
    expect(server.seen.map((s) => s.at)).toEqual([200]);
  });

  it('waits on a store that hangs no longer than the 1 s deadline, then at the fallback rate', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, () => ({ status: 200 }));
    const fetch = createFetch({
      fetch: server.fetch,
      clock,
      store: hangingStore(),
      rate: 40,
      burst: 8,
      expectedWorkers: 4,
    });
    const results = await runUntilSettled(clock, [fetch(URL_A)], 1);
    expect(results[0]!.status).toBe('fulfilled');
    // The booking gives up at the 1 s deadline; its fallback unit is due at 1100 ms.
    expect(server.seen.map((s) => s.at)).toEqual([1100]);
  });
});
