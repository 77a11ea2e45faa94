/**
 * README: "A window that stays exhausted for longer than `maxRetryAfterMs` fails fast with
 * `RateLimitedError`, whose `window` names it"; `RateLimitedError` "carries `retryAt` and, for a
 * window, `window`"; Token quotas: "`stats()` and `RateLimitedError.window` name it, e.g.
 * `tokens:tokens`".
 *
 * A server that counts tokens in a fixed hour (100,000 tokens) behind OpenAI-compatible headers; a
 * job of 120 calls of 1,000 tokens spends the hour after 100. Before 0ed4784 (2026-12-06), and
 * again since a58c5ac the same day, the 200 that read `x-ratelimit-remaining-tokens: 0` held the
 * key until the hour's end, past `maxRetryAfterMs`: the 20 calls left failed at once with
 * `RateLimitedError` naming `tokens:tokens`, and no call went to the spent hour. With 0ed4784
 * (taken back the same day), the key is paced at the hour's average (`100,000 tokens / 59 min`,
 * about 28 tokens a second): a call waits 36 s, goes into the spent hour, is refused, and the calls
 * left then fail on the refusal's `Retry-After`, their `window` null.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { RateLimitedError } from '../../src/errors.js';
import { runUntilSettled } from './fake-server.js';
import { fixedTokenWindowServer } from './fixed-token-window-server.js';
import { post } from './token-fake-server.js';

/** 8 callers, 15 calls each (120) of 1,000 tokens, stated exactly: 100,000 tokens a fixed hour. */
async function job() {
  const clock = new ManualClock();
  const server = fixedTokenWindowServer(clock, {
    shape: 'openai',
    windows: [
      { name: 'requests', unit: 'requests', limit: 500, windowMs: 60_000 },
      { name: 'tokens', unit: 'tokens', limit: 100_000, windowMs: 3_600_000 },
    ],
  });
  const fetch = createFetch({
    fetch: server.fetch,
    clock,
    random: () => 0.5,
    cost: () => ({ tokens: 1000 }),
  });
  let ok = 0;
  const failed: Array<{ window: string | null; at: number }> = [];
  const caller = async () => {
    for (let i = 0; i < 15; i++) {
      await fetch('http://127.0.0.1:9/v1/chat/completions', post({ tokens: 1000 })).then(
        (response) => {
          if (response.status === 200) ok++;
        },
        (error: unknown) => {
          if (error instanceof RateLimitedError) failed.push({ window: error.window, at: clock.now() });
          else throw error;
        },
      );
    }
  };
  const start = clock.now();
  await runUntilSettled(clock, Array.from({ length: 8 }, caller), 20, 3_600_000);
  const lastAdmittedMs = Math.max(...server.log.filter((e) => e.status === 200).map((e) => e.at)) - start;
  const lastFailedMs = Math.max(...failed.map((f) => f.at)) - start;
  return { ok, failed, refused: server.refused(), lastAdmittedMs, lastFailedMs };
}

describe('a token window of a fixed-window server, spent for the hour', () => {
  it('the calls left fail fast with RateLimitedError naming the token window; none is sent into the spent hour', async () => {
    const run = await job();
    expect(run.ok).toBe(100);
    expect(run.failed).toHaveLength(20);
    // Observed (0ed4784): 1 call sent into the spent hour and refused. On 9e6438c: 0.
    expect(run.refused).toBe(0);
    // Observed (0ed4784): every error's `window` null (they failed on the refusal's
    // Retry-After). On 9e6438c: `tokens:tokens`.
    expect(new Set(run.failed.map((f) => f.window))).toEqual(new Set(['tokens:tokens']));
    // Observed (0ed4784): the last one failed 43.1 s into the job, 36.8 s after the 100th call
    // was counted (6.3 s). On 9e6438c: 6.6 s, as the 100th call's answer came back.
    expect(run.lastFailedMs - run.lastAdmittedMs).toBeLessThanOrEqual(1_000);
  });
});
