/**
 * README: "a configured `rate`/`burst` bounds the key from above (a bucket …)"; a server that
 * answers a bare `429` is paced by the no-counters model: "after each gate one call goes alone,
 * once every earlier call is answered; only its admission opens the key, and each probe refused
 * again doubles the key's hold (`Retry-After` × 2ᵏ, up to 32 ×)"; and outages are ridden out with
 * "one probe at a time".
 *
 * So an outage's probe keeps to the configured bucket and the server models, and a refusal ends
 * the outage (the server is back). (The probe once went as soon as the gate opened, and only an
 * `answered` verdict ended the outage: with `rate: 1, burst: 1` a 3 s outage sent 4 requests in
 * 0.55 s, and a server back from a 20 ms outage answering bare `429`s got 19 requests in 175 ms,
 * where without the outage it got one probe and a 2 s hold.)
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { fakeFetch, runUntilSettled } from './fake-server.js';

const URL = 'http://127.0.0.1:9/items';

describe('outage probes and the key’s pacing', () => {
  it('a configured rate of 1/s (burst 1) sends one request in the first second of an outage', async () => {
    const clock = new ManualClock();
    // Down (503, no hint) for 3 s, then up.
    const server = fakeFetch(clock, (seen) => (seen.at < 3000 ? { status: 503 } : { status: 200 }), 5);
    const fetch = createFetch({ fetch: server.fetch, clock, random: () => 0.5, rate: 1, burst: 1 });
    const results = await runUntilSettled(
      clock,
      [fetch(URL), fetch(URL), fetch(URL), fetch(URL)],
      10,
      60_000,
    );
    expect(results.every((r) => r.status === 'fulfilled')).toBe(true);

    const firstSecond = server.seen.filter((s) => s.at < 1000).map((s) => s.at);
    expect(firstSecond).toEqual([0]);
  });

  it('a server back from a 20 ms outage answering bare 429s is probed once, then held', async () => {
    const clock = new ManualClock();
    // Down (503, no hint) for 20 ms, then every call is refused with a bare 429 (no Retry-After).
    const server = fakeFetch(clock, (seen) => (seen.at < 20 ? { status: 503 } : { status: 429 }), 5);
    const fetch = createFetch({ fetch: server.fetch, clock, random: () => 0.5 });
    // A deadline bounds every call, however long the key holds it.
    const calls = Array.from({ length: 8 }, () => fetch(URL, { deadlineMs: 120_000 }));
    await runUntilSettled(clock, calls, 10, 200_000);

    const firstRefused = server.seen.find((s) => s.at >= 20)!.at;
    const nextSecond = server.seen.filter((s) => s.at > firstRefused && s.at <= firstRefused + 1000);
    // Without the outage first, the same server gets one probe after its first refusal, then a 2 s
    // hold (sends at 0 ×4, 5, 2010, 6015). After it:
    expect(nextSecond.length).toBeLessThanOrEqual(1);
  });
});
