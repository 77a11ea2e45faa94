/**
 * README (Token quotas): "`cost(request)` returns ... `{ tokens: 430 }`"; "Each answer's `remaining`
 * re-syncs that window's model ..., so an estimate that is off drifts nowhere"; the caveats name
 * only a large *under*estimate as spending the window too fast, and an estimate that errs high as
 * "slower, not refused" ("Headway is slow for a moment, never fast").
 *
 * Until 2026-12-06 (session 28) an estimate 20 % high (1,200 tokens stated, 1,000 counted by the
 * server) got calls refused: the token track's bucket model estimates the server's refill as
 * `remaining` regained plus the units *booked* since the last reading (`src/client/models/bucket.ts`,
 * `estimate`), so each booked call added the 200 tokens the server never counted as "refill", and a
 * bucket that refills 500 tokens/s was read as refilling 4,900 tokens/s. In a unit whose costs are
 * estimates, the rate the reading's reset states now caps that measure. The same server, with the
 * cost stated exactly, is paced with no refusal (the control).
 */
import { describe, expect, it } from 'vitest';
import { tokenBucketJob } from './token-fake-server.js';

/** 104 calls of 1,000 tokens stated as `statedTokens` (OpenAI's shape), and the highest refill rate the key learned. */
async function job(statedTokens: number) {
  let highestRate = 0;
  const run = await tokenBucketJob({
    shape: 'openai',
    stated: statedTokens,
    afterCall: (stats) => {
      highestRate = Math.max(highestRate, stats[0]?.learned.rate ?? 0);
    },
  });
  return { ...run, highestRate };
}

describe('a token cost stated too high (the safe side)', () => {
  it('the exact estimate: no refusal (the control)', async () => {
    const exact = await job(1000);
    expect(exact.failed).toEqual([]);
    expect(exact.refused).toBe(0);
  });

  it('an estimate 20 % high is slower, never refused', async () => {
    const high = await job(1200);
    // Observed before the fix: 2 refusals (the key's model read the server's 500 tokens/s as 4,900 tokens/s).
    expect(high.failed).toEqual([]);
    expect(high.refused).toBe(0);
  });

  it('the learned refill rate stays within what the server refills (500 tokens/s)', async () => {
    const high = await job(1200);
    // Observed before the fix: 4900
    expect(high.highestRate).toBeLessThanOrEqual(500 * 1.05);
  });
});
