/**
 * `maxQueue` and `stats()` as documented: a bound on calls *waiting*, and retries counted only
 * when they were sent.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { DeadlineExceededError, InvalidOptionError } from '../../src/errors.js';
import { fakeFetch, runUntilSettled } from './fake-server.js';

const URL_A = 'http://127.0.0.1:9/a';

describe('maxQueue: 0', () => {
  it('is refused when the client is made, not by failing every call', () => {
    // Every call enters a key's line when it cannot go at once (and every call of a key with a
    // store does), so a bound of 0 would refuse calls on an idle key: not a bound, an outage.
    expect(() => createFetch({ maxQueue: 0 })).toThrow(InvalidOptionError);
    expect(() => createFetch({ maxQueue: 0 })).toThrow(/maxQueue.*at least 1/);
  });
});

describe('stats().retries', () => {
  it('does not count a retry that the deadline stopped before it was sent', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, (_s, i) =>
      i === 0 ? { status: 429, headers: { 'retry-after': '5' } } : { status: 200 },
    );
    const fetch = createFetch({ fetch: server.fetch, clock, deadlineMs: 1000 });
    const retryEvents: unknown[] = [];
    fetch.onRetry((e) => retryEvents.push(e));
    const budgetBefore = 100; // the default reserve: 10/s × 10 s
    const [result] = await runUntilSettled(clock, [fetch(URL_A)], 10);
    expect(result).toMatchObject({ status: 'rejected' });
    expect((result as PromiseRejectedResult).reason).toBeInstanceOf(DeadlineExceededError);
    expect(server.seen).toHaveLength(1);
    expect(retryEvents).toHaveLength(0);
    const stats = fetch.stats()[0]!;
    // "retries: Retries sent" — none was.
    expect(stats.retries).toBe(0);
    expect(stats.budgetLeft).toBe(budgetBefore);
  });
});
