/**
 * README (Token quotas, caveats): "Tried on 2026-12-06 and taken back: reading a refusal's hint
 * well short of the window's reset as a rate in the units booked, `(cost − remaining) / hint` ...
 * a window that gives tokens back in steps hints when its oldest units return" — this test keeps
 * that change (0e8c122, `readRefusalHint`) out: it fails with it and passes without it.
 *
 * The same job against a token minute counted as a sliding window counter (the reference server's
 * `sliding-window-counter`, behind OpenAI-compatible headers) that another client has just spent.
 * Its hints are well short of its reset too (the reset is when the weighted count is 0 again, up to
 * two windows away), but its tokens creep back at a rate the hint does not state: the first
 * refusals (hints of 61.8–62 s, resets of 119.8–120 s) read 10–15 tokens/s, and a refusal with 593
 * tokens left for a booking of 600 (hint 814 ms) read `(600 − 593) / 0.814` = 8.6 tokens/s, where
 * the window gives back 500 a second. The key then projects its calls past `maxRetryAfterMs`, and three quarters of
 * them fail at once with `RateLimitedError` (at 5 % low the wait projected, 68 s, is the window
 * model's: it governs once the bucket model, paced on those readings, was refused). Before
 * `readRefusalHint` (0e8c122) every call was answered, on the same time as with the cost stated
 * exactly.
 */
import { describe, expect, it } from 'vitest';
import { algorithmTokenJob } from './algorithm-token-server.js';
import { post } from './token-fake-server.js';

/** 500 requests and 30,000 tokens a minute, the token minute spent by another client at the start. */
const spentCounter = (latencyMs: number) => ({
  latencyMs,
  windows: [
    { unit: 'requests', algorithm: 'token-bucket', limit: 500, windowMs: 60_000 },
    {
      unit: 'tokens',
      algorithm: 'sliding-window-counter',
      limit: 30_000,
      windowMs: 60_000,
      spentAtStart: true,
    },
  ] as const,
});

describe('a sliding-window-counter token minute another client has just spent, the cost stated low', () => {
  it.each([
    // Observed on 0e8c122: 24 answered, 77 RateLimitedError ("the server asked to wait 69771 ms",
    // at 114.3 s: a rate of 8.6 tokens/s) and 3 × 429; on 28a4b52 (before): 104 answered,
    // 4 refusals (the first volley), the last call counted at 273.4 s.
    [600, 500, 24],
    // Observed on 0e8c122: 25 answered, 78 RateLimitedError ("the server asked to wait 68001 ms",
    // at 112.1 s) and 1 × 429; on 28a4b52: 104 answered, 4 refusals, 273.7 s.
    [950, 100, 25],
  ] as const)(
    '1,000 tokens stated as %i, answers in %i ms: every call answered',
    async (stated, latencyMs, observed) => {
      const run = await algorithmTokenJob(spentCounter(latencyMs), {
        cost: () => ({ tokens: stated }),
        call: () => post({ tokens: 1000 }),
      });
      expect(run.failed, `observed ${observed} answered on 0e8c122`).toEqual([]);
      expect(run.ok).toBe(104);
    },
  );
});
