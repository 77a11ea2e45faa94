/**
 * The errors that carry the last response (`RateLimitedError.response`,
 * `RetryBudgetExhaustedError.response`) over real HTTP on 127.0.0.1: `RateLimitedError`'s TSDoc
 * says the response's "body is unread", so a caller can read the server's explanation (an API's
 * JSON error, its quota message) as it could from plain `fetch`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { RateLimitedError, RetryBudgetExhaustedError } from '../../src/errors.js';
import { runUntilSettled } from '../client/fake-server.js';
import { listen } from '../server/loopback.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serve(answer: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = await listen(async (req, res) => {
    for await (const _ of req) {
      // drain the request body
    }
    answer(req, res);
  });
  cleanups.push(server.close);
  return server.url;
}

const EXPLANATION = JSON.stringify({ error: 'quota_exceeded', detail: 'daily quota used up' });

describe('the response an error carries', () => {
  it('RateLimitedError.response (a hint beyond maxRetryAfterMs) has its body unread, as its TSDoc says', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(429, { 'retry-after': '3600', 'content-type': 'application/json' }).end(EXPLANATION);
    });
    const fetch = createFetch({ maxRetryAfterMs: 60_000 });
    const error = await fetch(`${url}/items`).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RateLimitedError);
    const response = (error as RateLimitedError).response;
    expect(response?.status).toBe(429);
    // Before: the engine cancelled the body as it dropped the answer ("Body is unusable").
    expect(response?.bodyUsed).toBe(false);
    await expect(response?.text()).resolves.toBe(EXPLANATION);
  });

  it('RetryBudgetExhaustedError.response carries a readable body too', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(503, { 'content-type': 'application/json' }).end(EXPLANATION);
    });
    const clock = new ManualClock(0, Date.UTC(2026, 10, 30));
    const fetch = createFetch({
      clock,
      random: () => 0,
      retries: 1,
      retryBudget: { ratio: 0, minPerSecond: 0, ttlMs: 1000 },
      onBudgetExhausted: 'throw',
    });
    // The first call spends the budget's reserve of one retry, and returns the last 503.
    const [first] = await runUntilSettled(clock, [fetch(`${url}/a`).then((r) => r.text())], 100);
    expect(first).toEqual({ status: 'fulfilled', value: EXPLANATION });
    const [second] = await runUntilSettled(clock, [fetch(`${url}/b`)], 100);
    expect(second?.status).toBe('rejected');
    const error = (second as PromiseRejectedResult).reason;
    expect(error).toBeInstanceOf(RetryBudgetExhaustedError);
    const response = (error as RetryBudgetExhaustedError).response;
    expect(response?.status).toBe(503);
    expect(response?.bodyUsed).toBe(false);
    await expect(response?.text()).resolves.toBe(EXPLANATION);
  });
});
