/**
 * A server that answers every call `429` with `Retry-After: 30` (a bare proxy refusing for good):
 * the hint is within `maxRetryAfterMs` (60 s by default), so each call may retry after 30 s, and
 * a call that cannot is given up — the README: "a longer hint fails fast with `RateLimitedError`",
 * "a retry that can no longer go (the key's gate … asks for more than `maxRetryAfterMs`) ends the
 * call with that answer". The no-counters model doubles its own hold after each refused probe
 * ("`Retry-After` × 2ᵏ, up to 32 ×": 60, 120, 240, 480, 960 s) and reports it as `pacing`, which
 * `maxRetryAfterMs` never judges: the calls wait in one stretch up to 16 minutes, and three calls
 * take more than half an hour to end with the same 429 a header-blind client gets in 60 s.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { isHeadwayError } from '../../src/errors.js';
import { fakeFetch } from './fake-server.js';

const START = 10_000_000;
const MAX_RETRY_AFTER_MS = 60_000;

describe('a server that refuses every call with Retry-After: 30, forever', () => {
  it('no call is held longer than maxRetryAfterMs at once by the model’s own hold', async () => {
    const clock = new ManualClock(START);
    const server = fakeFetch(clock, () => ({ status: 429, headers: { 'retry-after': '30' } }), 5);
    const fetch = createFetch({
      fetch: server.fetch,
      clock,
      random: () => 0.5,
      maxRetryAfterMs: MAX_RETRY_AFTER_MS,
    });
    const waits: number[] = [];
    fetch.onThrottle((e) => waits.push(e.waitMs));

    const calls = [0, 1, 2].map((i) =>
      fetch(`http://api.test/items/${i}`).then(
        (res) => res.status,
        (error: unknown) => (isHeadwayError(error, 'HEADWAY_RATE_LIMITED') ? 'rate-limited' : error),
      ),
    );
    let settled = false;
    const all = Promise.all(calls).finally(() => {
      settled = true;
    });
    for (let t = 0; !settled && t < 3_600_000; t += 1000) await clock.advance(1000);
    const outcomes = await all;

    // Each call ends with the server's 429 (retries spent) or fails fast with RateLimitedError.
    for (const outcome of outcomes) expect([429, 'rate-limited']).toContain(outcome);
    expect(Math.max(...waits)).toBeLessThanOrEqual(MAX_RETRY_AFTER_MS);
  });
});
