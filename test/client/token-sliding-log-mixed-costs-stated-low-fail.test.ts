/**
 * README (Token quotas, caveats): "Tried on 2026-12-06 and taken back: reading a refusal's hint
 * well short of the window's reset as a rate in the units booked, `(cost − remaining) / hint` ...
 * a window that gives tokens back in steps hints when its oldest units return" — this test keeps
 * that change (0e8c122, `readRefusalHint`) out: it fails with it and passes without it.
 *
 * A sliding log of tokens does not hint at its reset: a refusal's hint is when its OLDEST counted
 * units are back, the reset when its newest are, and the two are more than a second apart as soon
 * as the calls it counted were spread over more than a second. And with calls of two sizes, each
 * stated a little low (`llmCost` on code), a refusal often comes with `remaining` just under the
 * booked cost: `(cost − remaining) / hint` is then a few tokens a second — 100 tokens over a hint
 * of 58.5 s read 1.7 tokens/s where the log gives back 500 a second on average. The key's bucket
 * model, once governing, projects its next calls minutes out, past `maxRetryAfterMs`, and they
 * fail at once with `RateLimitedError` ("the server asked to wait 293878 ms") though the server
 * never asked for more than a minute. Before `readRefusalHint` (0e8c122) every call was answered.
 */
import { describe, expect, it } from 'vitest';
import { tokenMinuteJob } from './fixed-token-window-server.js';
import { post } from './token-fake-server.js';

/** The body says what the server counts (`tokens`) and what the caller states (`stated`, the `cost`). */
const statedCost = (request: { body?: string | null }) => ({
  tokens: (JSON.parse(request.body ?? '{}') as { stated: number }).stated,
});

describe('calls of two sizes, each cost stated a little low, against a sliding-log token minute', () => {
  it.each([
    // Observed on 0e8c122: 97 answered, 6 RateLimitedError ("the server asked to wait 175500 ms",
    // then 293878–761878 ms: a rate of 6.8, then 1.7 tokens/s read from hints of 58.5 s) and 1 × 429;
    // on 28a4b52 (before): 104 answered, 4 refusals, the last call counted at 248.8 s.
    [500, 2000, 0.8, 97],
    // Observed on 0e8c122: 95 answered, 9 RateLimitedError ("the server asked to wait 2265537 ms");
    // on 28a4b52: 104 answered, 8 refusals, 612.2 s.
    [100, 5000, 0.9, 95],
  ] as const)(
    '%i and %i tokens, each stated at %f of it: every call answered',
    async (small, large, factor, observed) => {
      const run = await tokenMinuteJob({
        algorithm: 'sliding-log',
        cost: statedCost,
        call: (caller, i) => {
          const tokens = (caller + i) % 2 === 1 ? small : large;
          return post({ tokens, stated: Math.round(tokens * factor) });
        },
      });
      expect(run.ok, `observed ${observed} answered on 0e8c122`).toBe(104);
    },
  );
});
