/**
 * README: "5xx and connection errors with no hint close the gate with a growing, jittered backoff,
 * and one probe at a time tests the server while the other calls wait" (`backoff`: "full-jitter
 * exponential backoff", base 100 ms). The backoff grows as probes keep failing: the first failure
 * holds the key for 50–100 ms (`exponentialCeiling(0)`), each failed probe after it doubles that.
 *
 * So the attempts already in flight together when the server went away bring one failure, not one
 * each. (They counted one each: sixteen calls in flight that met one refused connection at the
 * same instant read as sixteen failed probes, the gate jumped to the 10 s cap, and a server gone
 * for 10 ms was not tested again for 7.5 s.)
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { fakeFetch, runUntilSettled } from './fake-server.js';

const URL = 'http://api.test/items';

describe('an outage blip met by many calls in flight at once', () => {
  it('is tested again after the first backoff step, not the cap', async () => {
    const clock = new ManualClock();
    // Connections refused for the first 10 ms, then the server answers 200.
    const refused = new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED') });
    const server = fakeFetch(clock, (seen) => (seen.at < 10 ? refused : { status: 200 }), 5);
    // A configured bucket with a burst of 17 (one unit kept as its cushion): sixteen calls leave together at t = 0.
    const fetch = createFetch({ fetch: server.fetch, clock, random: () => 0.5, rate: 100, burst: 17 });
    const calls = Array.from({ length: 16 }, () => fetch(URL));
    const results = await runUntilSettled(clock, calls, 10, 60_000);
    expect(results.every((r) => r.status === 'fulfilled' && r.value.status === 200)).toBe(true);

    expect(server.seen.filter((s) => s.at === 0)).toHaveLength(16);
    // All sixteen failed at t = 5 ms: one failure of the server, the first backoff step (≤ 100 ms,
    // plus the gate's 1 % spread) before the probe.
    const probe = server.seen.find((s) => s.at > 0)!;
    expect(probe.at).toBeLessThan(200);
  });
});
