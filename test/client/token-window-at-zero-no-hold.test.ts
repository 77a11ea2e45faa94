/**
 * README: "`remaining: 0` holds the key until the next unit is expected back"; `RateLimitedError`
 * is "the server asked for more than `maxRetryAfterMs` (a retry hint, or a window it reports
 * exhausted until later)"; Token quotas: "A window's reset is read as 'back to full by then'".
 *
 * Anthropic states a token window's reset as the time it is fully replenished, rounded up to the
 * second. A cost stated a little low (llmCost's chars ÷ 4 on code or other languages) lets the
 * window reach `remaining: 0` on a 200. Until 2026-12-06 the key's bucket, with no rate measured
 * yet, held every call until that reset: a whole window, 60.5 s against the default
 * `maxRetryAfterMs` of 60 s, so calls failed at once with `RateLimitedError` ("the server asked to
 * wait 60500 ms") although the server never refused one. In tokens the reset's rate now paces the
 * key from there (units come back all the time).
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { runUntilSettled } from './fake-server.js';
import { llmServer, post } from './token-fake-server.js';

const URL_A = 'http://127.0.0.1:9/v1/messages';

/** 8 callers, 13 calls each (104) of 1,000 input tokens against Anthropic's shape: 30,000 input tokens a minute. */
async function job(statedTokens: number) {
  const clock = new ManualClock();
  const server = llmServer(clock, {
    shape: 'anthropic',
    latencyMs: 500,
    requests: { limit: 500, windowMs: 60_000 },
    input: { limit: 30_000, windowMs: 60_000 },
    output: { limit: 1_000_000, windowMs: 60_000 },
  });
  const fetch = createFetch({
    fetch: server.fetch,
    clock,
    random: () => 0.5,
    cost: () => ({ 'input-tokens': statedTokens }),
  });
  const statuses: number[] = [];
  const rejected: string[] = [];
  const caller = async () => {
    for (let i = 0; i < 13; i++) {
      await fetch(URL_A, post({ input: 1000, output: 0 })).then(
        (response) => statuses.push(response.status),
        (error: Error) => rejected.push(error.name),
      );
    }
  };
  await runUntilSettled(clock, Array.from({ length: 8 }, caller), 20, 3_600_000);
  return { ok: statuses.filter((s) => s === 200).length, rejected, refused: server.refused() };
}

describe("a token window at remaining 0 on a 200 (Anthropic's reset: full again by then)", () => {
  it.each([900, 800])(
    'a cost stated as %i of 1,000: every call answered 200, none failed',
    async (stated) => {
      const run = await job(stated);
      // Observed before the fix: 73 (900) and 63 (800) calls rejected with RateLimitedError, 0 refused by the server.
      expect(run.rejected).toEqual([]);
      expect(run.ok).toBe(104);
      expect(run.refused).toBeLessThanOrEqual(1);
    },
  );
});
