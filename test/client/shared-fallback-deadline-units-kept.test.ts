/**
 * README, "More than one process": "If the store fails ... each worker paces on its own at
 * `rate / expectedWorkers`", and "A call never sent gives its units back. A call that gives up after
 * its booking — its deadline, an abort, a gate that closed meanwhile, a transport that refused it —
 * hands the units back ... so the fleet's next bookings do not wait behind slots nobody uses."
 * (Without a store, the pacer refunds such a call too: `Pacer.cancel`.)
 *
 * So on the fallback (store down) a call that fails its deadline after booking gives its units back
 * to the local fallback bucket (they stayed booked once: after 19 such calls, the next call of the
 * process waited 1.9 s behind slots nobody used).
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { isHeadwayError } from '../../src/errors.js';
import type { RateLimitStore } from '../../src/stores/store.js';
import { fakeFetch, runUntilSettled } from './fake-server.js';

const URL_A = 'http://127.0.0.1:9/a';

describe('shared quota, store down: calls that fail their deadline before they are sent', () => {
  it('leave no units booked in the fallback: the next call goes at the fallback rate', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, () => ({ status: 200 }));
    const down = () => Promise.reject(new Error('ECONNREFUSED'));
    const store: RateLimitStore = {
      take: down,
      reserve: down,
      giveBack: down,
      holdGate: down,
      gateWait: down,
    };
    // One worker: the fallback paces at 10/s (it starts empty when the store first fails).
    const fetch = createFetch({ fetch: server.fetch, clock, store, rate: 10, burst: 20, expectedWorkers: 1 });
    const results = await runUntilSettled(
      clock,
      Array.from({ length: 20 }, () => fetch(URL_A, { deadlineMs: 150 })),
      5,
    );
    const missed = results.filter(
      (r) => r.status === 'rejected' && isHeadwayError(r.reason, 'HEADWAY_DEADLINE_EXCEEDED'),
    ).length;
    // One call sent (its unit due at 100 ms), 19 never sent: their deadline could not be met.
    expect(server.seen.map((s) => s.at)).toEqual([100]);
    expect(missed).toBe(19);
    // The next call: at 10/s it is due one interval after the one sent, at 200 ms.
    await runUntilSettled(clock, [fetch(URL_A)], 5);
    expect(server.seen[1]!.at).toBeLessThanOrEqual(200);
  });
});
