/**
 * README ("How Headway reads a server", bucket model): a token bucket's `rate` is "measured from how
 * `remaining` moves against what was sent"; src/client/models/bucket.ts: "Between two readings A and
 * B the server refilled `rB − rA + sent(A..B]` units, so rate = that / (tB − tA)", and "A full bucket
 * hides refill (it was clamped)". README (Token quotas): each window's `remaining` re-syncs its model
 * "so an estimate that is off drifts nowhere".
 *
 * What happens instead: the estimate's anchor (the first reading that was not near full) is kept
 * across any idle span. A token window is never read near full after a call (a call costs hundreds
 * of tokens), so after a day idle the estimate measures from yesterday's reading: the refill the
 * bucket could not bank while it sat full is spread over the whole day. The key learns under 1 token/s
 * against the server's 333/s, and the same job that took 69 s on day 0 is not done after an hour on
 * day 1 (once the burst is spent, each call waits for refill the model thinks takes many minutes).
 *
 * Fixed on 2026-12-06 (the fifth review round): a key idle past the time its bucket would be full
 * again (the stated reset, else the measured rate's refill) starts its rate estimate afresh. What
 * the text above describes is how it behaved before.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { goDuration } from '../support/openai-server.js';

const DAY = 86_400_000;
const LIMIT = 20_000; // tokens, refilled to full over 60 s (333 tokens/s), as OpenAI's TPM buckets
const PER_MS = LIMIT / 60_000;
const CALL_TOKENS = 430;

describe('a learned token rate after a day idle', () => {
  it('the same job on the next day is paced at the server rate, not at the day-long average', async () => {
    const clock = new ManualClock();
    let level = LIMIT;
    let at = 0;
    let refused = 0;
    // An OpenAI-shaped server: a token bucket that refills continuously, its reset the time until full.
    const server = async (): Promise<Response> => {
      const now = clock.now();
      level = Math.min(LIMIT, level + (now - at) * PER_MS);
      at = now;
      const headers = (): Record<string, string> => ({
        'x-ratelimit-limit-requests': '10000',
        'x-ratelimit-remaining-requests': '9999',
        'x-ratelimit-reset-requests': '6ms',
        'x-ratelimit-limit-tokens': String(LIMIT),
        'x-ratelimit-remaining-tokens': String(Math.floor(level)),
        'x-ratelimit-reset-tokens': goDuration((LIMIT - level) / PER_MS),
      });
      if (level < CALL_TOKENS) {
        refused++;
        const wait = Math.ceil((CALL_TOKENS - level) / PER_MS);
        return new Response('no', { status: 429, headers: { ...headers(), 'retry-after-ms': String(wait) } });
      }
      level -= CALL_TOKENS;
      const answer = headers();
      await clock.sleep(5);
      return new Response('ok', { status: 200, headers: answer });
    };
    const fetch = createFetch({
      fetch: server as unknown as typeof globalThis.fetch,
      clock,
      random: () => 0.5,
    });

    /** 100 calls from 8 callers; returns the job's duration in ms (bounded at an hour). */
    const job = async (): Promise<number> => {
      const start = clock.now();
      let started = 0;
      let finished = false;
      const callers = Array.from({ length: 8 }, async () => {
        while (started < 100) {
          started++;
          await fetch('https://api.openai.example/v1/chat/completions');
        }
      });
      void Promise.all(callers).then(() => {
        finished = true;
      });
      while (!finished && clock.now() - start < 3_600_000) await clock.advance(100);
      return clock.now() - start;
    };

    const day0 = await job(); // 100 × 430 = 43,000 tokens: the burst, then ~70 s at 333 tokens/s
    expect(refused).toBe(0);
    await clock.advance(DAY);
    const day1 = await job();
    expect(refused).toBe(0);
    const learned = fetch.stats()[0]?.learned;
    expect(learned?.unit).toBe('tokens');
    expect(learned?.rate).toBeGreaterThan(100);
    expect(day1).toBeLessThan(2 * day0);
  }, 60_000);
});
