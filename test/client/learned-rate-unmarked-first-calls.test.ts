/**
 * README (Token quotas): "Learned with no configuration … Headway is slow for a moment, never
 * fast." An unconfigured key's first calls go before any token window is known: they are booked at
 * no tokens, so the token window's marks never count them. The bucket model measured the window's
 * refill from its first reading, taken while those calls were still in flight: every later span
 * read their tokens as refill never given, and against 10,000 tokens a minute (166.7 a second)
 * with 4 callers and no refusal to restart the measure, the learned rate fell to a few tokens a
 * second, and the next call was projected to wait past `maxRetryAfterMs` (a `RateLimitedError`
 * before it was sent: the openai contract test failed so, once, under load in CI).
 *
 * Fixed on 2026-12-06 (session 25): an answer's reading says how many calls the server counted in
 * the window that are in no mark of its unit (`Observation.unmarked`), and the bucket model
 * measures its refill afresh once none is left. What the text above describes is how it behaved
 * before.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { runUntilSettled } from './fake-server.js';
import { llmServer, lowestTokenRate, post } from './token-fake-server.js';

const URL_A = 'http://127.0.0.1:9/v1/chat/completions';

describe('learned token rate: the first calls, sent before the token window was known', () => {
  it('4 unconfigured callers learn about the refill the server gives, and no call fails', async () => {
    const clock = new ManualClock();
    const server = llmServer(clock, {
      latencyMs: 500,
      requests: { limit: 5000, windowMs: 60_000 },
      tokens: { limit: 10_000, windowMs: 60_000 },
    });
    const fetch = createFetch({ fetch: server.fetch, clock, random: () => 0.5 });
    const errors: unknown[] = [];
    const caller = async () => {
      for (let i = 0; i < 10; i++) await fetch(URL_A, post({ tokens: 1000 })).catch((e) => errors.push(e));
    };
    const jobs = Promise.all(Array.from({ length: 4 }, caller));
    const watch = lowestTokenRate(clock, fetch, jobs);
    await runUntilSettled<unknown>(clock, [jobs, watch], 20, 7_200_000);
    const lowestRate = await watch;
    expect(errors).toEqual([]);
    expect(server.admitted()).toBe(40);
    // The server refills 166.7 tokens a second.
    expect(lowestRate).toBeGreaterThan(100);
  });
});
