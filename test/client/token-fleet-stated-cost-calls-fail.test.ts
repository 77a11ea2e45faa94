/**
 * README (Token quotas): "With a `store` and no `rate`, a key whose server reports a token window is
 * paced by each process from its own view of every window"; and the first promise: "**paces**
 * calls so the server never has to refuse them".
 *
 * A fleet: workers sharing one `memoryStore`, each with the same `cost` stating the tokens each call
 * counts EXACTLY, against one token window. Each worker's learned cost reads the other workers'
 * calls in `remaining` as its own (another client's use, a high sample). a58c5ac (2026-12-06, taken
 * back the same day) scaled stated costs by it: they were booked high, and calls that all succeed
 * without it ended with `RateLimitedError`.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { memoryStore } from '../../src/stores/memory.js';
import { runUntilSettled } from './fake-server.js';
import { fixedTokenWindowServer } from './fixed-token-window-server.js';
import { llmServer, post } from './token-fake-server.js';

/**
 * `workers` fetches sharing a store, 8 callers spread over them, 13 calls each (104) of 1,000 tokens
 * stated exactly, against 500 requests and 30,000 tokens a minute: OpenAI's shape (a bucket refilled
 * continuously) or a fixed minute behind OpenAI-compatible headers.
 */
async function job(server: 'bucket' | 'fixed', workers: number) {
  const clock = new ManualClock();
  const target =
    server === 'bucket'
      ? llmServer(clock, {
          latencyMs: 500,
          requests: { limit: 500, windowMs: 60_000 },
          tokens: { limit: 30_000, windowMs: 60_000 },
        })
      : fixedTokenWindowServer(clock, {
          shape: 'openai',
          windows: [
            { name: 'requests', unit: 'requests', limit: 500, windowMs: 60_000 },
            { name: 'tokens', unit: 'tokens', limit: 30_000, windowMs: 60_000 },
          ],
        });
  const store = memoryStore({ clock });
  const fetches = Array.from({ length: workers }, () =>
    createFetch({
      fetch: target.fetch,
      clock,
      store,
      expectedWorkers: workers,
      random: () => 0.5,
      cost: (request) => ({ tokens: (JSON.parse(request.body ?? '{}') as { tokens: number }).tokens }),
    }),
  );
  let ok = 0;
  const rejected: string[] = [];
  const caller = async (c: number) => {
    const fetch = fetches[c % workers]!;
    for (let i = 0; i < 13; i++) {
      await fetch('http://127.0.0.1:9/v1/chat/completions', post({ tokens: 1000 })).then(
        (response) => {
          if (response.status === 200) ok++;
        },
        (error: Error) => rejected.push(`${error.name}: ${error.message}`),
      );
    }
  };
  await runUntilSettled(
    clock,
    Array.from({ length: 8 }, (_, c) => caller(c)),
    20,
    3_600_000,
  );
  return { ok, rejected, refused: target.refused() };
}

describe('a fleet sharing a store, each call stating its tokens exactly', () => {
  it('4 workers, a fixed token minute: every call answered 200', async () => {
    const run = await job('fixed', 4);
    // Observed: 98 answered, 6 calls rejected with RateLimitedError "(window tokens:tokens): the
    // server asked to wait 673164 ms" (and 1511844 ms) although its retry-after is at most a minute
    // (4 refusals); with the scaling reverted 104 answered, none rejected (16 refusals, waited out).
    expect(run.rejected).toEqual([]);
    expect(run.ok).toBe(104);
  });

  it("6 workers, OpenAI's shape (a bucket): every call answered 200", async () => {
    const run = await job('bucket', 6);
    // Observed: 96 answered, 8 calls rejected with RateLimitedError "(window tokens:tokens): the
    // server asked to wait 384548 ms" (12 refusals); with the scaling reverted 104 answered, none
    // rejected (18 refusals, each waited out).
    expect(run.rejected).toEqual([]);
    expect(run.ok).toBe(104);
  });
});
