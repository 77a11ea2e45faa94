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
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { runUntilSettled } from './fake-server.js';
import { llmServer, post } from './token-fake-server.js';

const URL_A = 'http://127.0.0.1:9/v1/chat/completions';

/** 8 callers, 13 calls each (104) of 1,000 tokens against OpenAI's shape: 500 RPM, 30,000 TPM. */
async function job(statedTokens: number) {
  const clock = new ManualClock();
  const server = llmServer(clock, {
    latencyMs: 500,
    requests: { limit: 500, windowMs: 60_000 },
    tokens: { limit: 30_000, windowMs: 60_000 },
  });
  const fetch = createFetch({
    fetch: server.fetch,
    clock,
    random: () => 0.5,
    cost: () => ({ tokens: statedTokens }),
  });
  let highestRate = 0;
  const caller = async () => {
    for (let i = 0; i < 13; i++) {
      await fetch(URL_A, post({ tokens: 1000 })).catch((error: unknown) => error);
      highestRate = Math.max(highestRate, fetch.stats()[0]?.learned.rate ?? 0);
    }
  };
  await runUntilSettled(clock, Array.from({ length: 8 }, caller), 20, 3_600_000);
  return { refused: server.refused(), admitted: server.admitted(), highestRate };
}

describe('a token cost stated too high (the safe side)', () => {
  it('the exact estimate: no refusal (the control)', async () => {
    const exact = await job(1000);
    expect(exact.admitted).toBe(104);
    expect(exact.refused).toBe(0);
  });

  it('an estimate 20 % high is slower, never refused', async () => {
    const high = await job(1200);
    // Observed before the fix: 2 refusals (the key's model read the server's 500 tokens/s as 4,900 tokens/s).
    expect(high.admitted).toBe(104);
    expect(high.refused).toBe(0);
  });

  it('the learned refill rate stays within what the server refills (500 tokens/s)', async () => {
    const high = await job(1200);
    // Observed before the fix: 4900
    expect(high.highestRate).toBeLessThanOrEqual(500 * 1.05);
  });
});
