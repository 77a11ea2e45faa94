/**
 * `RateLimitedError.retryAfterMs` is documented as "the wait the server asked for, in ms", and its
 * message says "the server asked to wait N ms". When a call meets a key's gate that a retry hint
 * closed (another call's `Retry-After`), the README says the gate "opens with a small jittered
 * spread, which `maxRetryAfterMs` does not count": the spread is the client's own, not the
 * server's ask. The error reports the gate's length, spread included (a fraction of a ms with any
 * real `random`), as what the server asked.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import type { RateLimitedError } from '../../src/errors.js';
import { fakeFetch } from './fake-server.js';

const URL_A = 'http://127.0.0.1:9/a';
const URL_B = 'http://127.0.0.1:9/b';

describe('a call that meets a gate closed by a Retry-After longer than maxRetryAfterMs', () => {
  it('reports the wait the server asked for, not the gate with its spread', async () => {
    const clock = new ManualClock(0, Date.UTC(2026, 0, 1));
    const server = fakeFetch(clock, () => ({ status: 429, headers: { 'retry-after': '3600' } }));
    // A random that is not a round number, as Math.random's never is.
    const fetch = createFetch({ fetch: server.fetch, clock, random: () => 0.2087866 });

    // Neither call waits: the clock does not move, so the server's ask is 3,600,000 ms for both.
    const first = await fetch(URL_A).catch((error: unknown) => error);
    expect(first).toMatchObject({ code: 'HEADWAY_RATE_LIMITED', retryAfterMs: 3_600_000 });

    // A new call of the same key, at the same instant, meets the gate the 429 closed.
    const error = (await fetch(URL_B).catch((e: unknown) => e)) as RateLimitedError;
    expect(error).toMatchObject({ code: 'HEADWAY_RATE_LIMITED' });
    expect(server.seen).toHaveLength(1);
    expect(error.retryAfterMs).toBe(3_600_000);
    expect(error.message).toContain('the server asked to wait 3600000 ms (until 2026-01-01T01:00:00.000Z)');
  });
});
