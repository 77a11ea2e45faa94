/**
 * README (Token quotas): "the server's count decides ... a large underestimate spends the window
 * faster than its model expects until the next answer"; "`remaining: 0` holds the key until the
 * next unit is expected back"; options: `maxRetryAfterMs` "a minute and a little, so a spent
 * per-minute window whose reset is stated to the second is waited out".
 *
 * A cost stated a little low (llmCost's chars ÷ 4 on code or other languages) books fewer units
 * than the server counts, and the window reaches `remaining: 0` on a 200. With no refill rate
 * measured yet (an estimate that is low reads less refill than there was), the key's bucket holds
 * until the window's reset, which a server whose tokens come back in steps needs
 * (`token-fixed-window-*.test.ts`). On Anthropic's shape that reset — the time the window is full
 * again, rounded up to the second — is 60.5 s. Until 2026-12-06 the default `maxRetryAfterMs` was
 * 60 s: calls failed at once with `RateLimitedError` ("the server asked to wait 60500 ms") although
 * the server refused none. Tried the same day and taken back, each kept out by the tests its
 * review wrote: no hold in tokens once the window was seen with room (fixed-window and sliding-log
 * token servers were then refused, and an IETF token minute failed 64 of 120 calls), and a stated
 * cost scaled by the learned cost over the median stated (calls of two sizes, and fleets that
 * share a store, were overbooked: `token-mixed-costs-*`, `token-fleet-stated-cost-calls-fail`).
 */
import { describe, expect, it } from 'vitest';
import { tokenBucketJob } from './token-fake-server.js';

/** 104 calls of 1,000 tokens stated as `stated`, against 30,000 tokens a minute (token-fake-server.ts). */
const job = (shape: 'openai' | 'anthropic', stated: number) => tokenBucketJob({ shape, stated });

describe('a token cost stated low', () => {
  it("OpenAI's shape, 950 stated of 1,000 counted: every call answered, none refused (the control)", async () => {
    const [exact, low] = [await job('openai', 1000), await job('openai', 950)];
    expect(low.failed).toEqual([]);
    expect(low.refused).toBe(0);
    expect(low.doneMs).toBeLessThanOrEqual(exact.doneMs * 1.01);
  });

  // Known issue, open (README, Token quotas): marked `it.fails` so the suite reproduces it on
  // every run; when a fix lands this test fails, and `.fails` comes off. Tried on 2026-12-06
  // (session 29) and taken back: reading a refusal's hint well short of the reset as a rate in
  // booked units, `(cost − remaining) / hint`, fixed both cases, but sliding-log and sliding-window-
  // counter token windows (which hint when their oldest units come back) then failed calls
  // (token-sliding-*-fail, token-refusal-hint-zero-*, token-anthropic-output-sliding-log-*).
  it.fails.each([700, 600])(
    "OpenAI's shape, %i stated of 1,000 counted: no whole minute held at `remaining: 0`, every call answered",
    async (stated) => {
      const [exact, low] = [await job('openai', 1000), await job('openai', stated)];
      // Observed: 700 — 6 refusals, the last call counted at 188.8 s against 148.8 s (the key held
      // a whole minute at each `remaining: 0`, the server's hint of 2 s aside); 600 — 17 refusals
      // and a call that failed.
      expect(low.failed).toEqual([]);
      expect(low.refused).toBeLessThanOrEqual(2);
      expect(low.doneMs).toBeLessThanOrEqual(exact.doneMs * 1.01);
    },
  );

  it.each([900, 800])(
    "Anthropic's shape, %i stated of 1,000 counted: every call answered, none failed at once",
    async (stated) => {
      const low = await job('anthropic', stated);
      // Observed with `maxRetryAfterMs` 60 s: 73 (900) and 63 (800) calls rejected with
      // RateLimitedError, the server refusing 0 and 1.
      expect(low.failed).toEqual([]);
    },
  );
});
