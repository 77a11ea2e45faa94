/**
 * README (Token quotas): "`cost(request)` returns ... `{ tokens: 430 }`"; "Each answer's `remaining`
 * re-syncs that window's model ..., so an estimate that is off drifts nowhere"; the caveats name
 * only a large *under*estimate as spending the window too fast, and an estimate that errs high as
 * "slower, not refused" ("Headway is slow for a moment, never fast").
 *
 * Instead, an estimate 20 % high (1,200 tokens stated, 1,000 counted by the server) gets calls
 * refused. The token track's bucket model estimates the server's refill as `remaining` regained
 * plus the units *booked* since the last reading (`src/client/models/bucket.ts`, `estimate`): each
 * booked call adds the 200 tokens the server never counted as "refill", so a bucket that refills
 * 500 tokens/s is read as refilling 4,900 tokens/s, and calls go into a window the counters say is
 * empty. The same server, with the cost stated exactly, is paced with no refusal.
 *
 * Open (2026-12-06, session 25, `it.fails`, README Limits).
 */
// Known issue, open (README, Limits: "Known issues found by the review rounds"): marked
// `it.fails` so the suite reproduces it on every run; when a fix lands this test fails, and
// `.fails` comes off.
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

  it.fails('an estimate 20 % high is slower, never refused', async () => {
    const high = await job(1200);
    // Observed: 2 refusals (the key's model read the server's 500 tokens/s as 4,900 tokens/s).
    expect(high.refused).toBe(0);
  });

  it.fails('the learned refill rate stays within what the server refills (500 tokens/s)', async () => {
    const high = await job(1200);
    // Observed: 4900
    expect(high.highestRate).toBeLessThanOrEqual(500 * 1.05);
  });
});
