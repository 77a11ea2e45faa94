/**
 * `error.facts.waitedMs` is documented (`CallFacts`) as the "ms the call spent waiting for pacing,
 * gates and backoff", and README says the errors a call gives up with after it started carry
 * these facts. A call that gives up *while* waiting for its turn reports none of that wait: the
 * engine adds a turn's wait to the facts only once the turn is granted (`EngineCall#loop`), so a
 * call that waited a second in its key's line and then hit its deadline — or met a long
 * `Retry-After` when it reached the head — says it waited 0 ms, while `stats().waitedMs` counts it.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { fakeFetch, runUntilSettled } from './fake-server.js';

const URL_A = 'http://127.0.0.1:9/a';
const URL_B = 'http://127.0.0.1:9/b';

describe('facts.waitedMs of a call that gives up in its key’s line', () => {
  it('DeadlineExceededError counts the wait behind a call in flight', async () => {
    const clock = new ManualClock();
    // One call in flight at a time; the first is answered after 5 s.
    const server = fakeFetch(clock, () => ({ status: 200 }), 5000);
    const fetch = createFetch({ fetch: server.fetch, clock, random: () => 0.5, maxConcurrent: 1 });

    const [a, b] = await runUntilSettled(clock, [fetch(URL_A), fetch(URL_B, { deadlineMs: 1000 })], 10);
    expect(a).toMatchObject({ status: 'fulfilled' });
    expect(b).toMatchObject({ status: 'rejected', reason: { code: 'HEADWAY_DEADLINE_EXCEEDED' } });
    expect(fetch.stats()[0]).toMatchObject({ waitedMs: 1000 });
    expect((b as PromiseRejectedResult).reason.facts).toMatchObject({ attempts: 0, waitedMs: 1000 });
  });

  it('RateLimitedError counts the wait before it reached the head of the line', async () => {
    const clock = new ManualClock();
    // /a is answered after 5 s with a Retry-After longer than `maxRetryAfterMs`; /b waits for it.
    const server = fakeFetch(clock, () => ({ status: 429, headers: { 'retry-after': '3600' } }), 5000);
    const fetch = createFetch({ fetch: server.fetch, clock, random: () => 0.5, maxConcurrent: 1 });

    const [, b] = await runUntilSettled(clock, [fetch(URL_A), fetch(URL_B)], 10);
    expect(b).toMatchObject({ status: 'rejected', reason: { code: 'HEADWAY_RATE_LIMITED' } });
    expect(server.seen).toHaveLength(1);
    expect((b as PromiseRejectedResult).reason.facts).toMatchObject({ attempts: 0, waitedMs: 5000 });
  });
});
