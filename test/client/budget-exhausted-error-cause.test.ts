/**
 * With `onBudgetExhausted: 'throw'`, a call whose retry the spent budget refuses rejects with
 * `RetryBudgetExhaustedError`. After an attempt that got no response (a network error, a timed-out
 * attempt) that error is all the caller gets: `response` is undefined, and the failure itself is
 * documented to travel as the native `cause` (the class takes one; design: "a base `HeadwayError`
 * … native `cause`, and the facts a caller needs"; README: with `'return'` the same call rejects
 * with "the transport's own network error"). The engine never passes it: `cause` is undefined, so
 * the caller cannot tell a refused connection from a DNS failure or a timeout.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { RetryBudgetExhaustedError } from '../../src/errors.js';
import { fakeFetch, runUntilSettled } from './fake-server.js';

const URL_A = 'http://127.0.0.1:9/a';
/** A budget of one retry (its reserve), and nothing earned after. */
const retryBudget = { ratio: 0, minPerSecond: 0, ttlMs: 1000 };

describe('RetryBudgetExhaustedError after an attempt with no response', () => {
  it('carries the network error as its cause', async () => {
    const clock = new ManualClock();
    const boom = new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:9') });
    const server = fakeFetch(clock, () => boom);
    const fetch = createFetch({
      fetch: server.fetch,
      clock,
      random: () => 0,
      retryBudget,
      onBudgetExhausted: 'throw',
    });

    const [result] = await runUntilSettled(clock, [fetch(URL_A)], 10);
    expect(result).toMatchObject({ status: 'rejected', reason: { code: 'HEADWAY_RETRY_BUDGET_EXHAUSTED' } });
    const error = (result as PromiseRejectedResult).reason as RetryBudgetExhaustedError;
    expect(error).toBeInstanceOf(RetryBudgetExhaustedError);
    expect(error.facts).toMatchObject({ attempts: 2, statuses: [null, null] });
    expect(error.cause).toBe(boom);
  });

  it('carries the TimeoutError of a timed-out attempt as its cause', async () => {
    const clock = new ManualClock();
    // Each attempt answers after 1 s; it times out after 100 ms.
    const server = fakeFetch(clock, () => ({ status: 200 }), 1000);
    const fetch = createFetch({
      fetch: server.fetch,
      clock,
      random: () => 0,
      retryBudget,
      onBudgetExhausted: 'throw',
      timeoutMs: 100,
    });

    const [result] = await runUntilSettled(clock, [fetch(URL_A)], 10);
    expect(result).toMatchObject({ status: 'rejected', reason: { code: 'HEADWAY_RETRY_BUDGET_EXHAUSTED' } });
    const error = (result as PromiseRejectedResult).reason as RetryBudgetExhaustedError;
    expect(error.cause).toMatchObject({ code: 'HEADWAY_TIMEOUT', timeoutMs: 100 });
  });
});
