/**
 * README (Token quotas): "Until the first answers, the token cost of an unstated call is unknown
 * (the first few calls go as the small initial window allows), and a window already spent by
 * another client makes the first samples high: Headway is slow for a moment, never fast."
 *
 * Instead, since 502a98e (`Pacer.#unbooked`), the first answer's reading counts the other calls of
 * the first batch still in flight at the cost the *first* sample just taught, and that sample is
 * the high one (the other client's 20,000 tokens, and the batch's own, over one call): 3 calls ×
 * ~16,000 tokens are taken off a token bucket that already counted them. The batch's other answers
 * carry the same token mark (those calls booked no tokens: `ticket.marks.tokens` is unset, so the
 * reading's mark is the unit's `#sent`, 0) and never re-sync it: the key reads −48,000 tokens and
 * sends nothing for 100 s, where the server's bucket (30,000 tokens, full again within a minute)
 * had room after 3 s. At 502a98e~1 the 5th call left at 4.5 s, and the job took 303 s, not 359 s.
 *
 * Found on 2026-12-06 (session 25, a review of that day's changes) against 502a98e (the calls in
 * flight that booked nothing in a unit counted at its learned cost); the change was taken back the
 * same day, and this test keeps its regression out: it passes on the code without it. The figures
 * above are that change's, against the code before and after it.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { runUntilSettled } from './fake-server.js';
import { llmServer, post } from './token-fake-server.js';

const URL_A = 'http://127.0.0.1:9/v1/chat/completions';

describe('learned token cost: a high first sample and the calls of the first batch', () => {
  it('does not stall the key for 100 s after the first answers', async () => {
    const clock = new ManualClock();
    // OpenAI's shape: 5,000 RPM, 30,000 TPM (buckets refilled continuously), answers in 3 s.
    const server = llmServer(clock, {
      latencyMs: 3000,
      requests: { limit: 5000, windowMs: 60_000 },
      tokens: { limit: 30_000, windowMs: 60_000 },
    });
    // Another client spent 20,000 tokens just before the job starts.
    await runUntilSettled(clock, [server.fetch(URL_A, post({ tokens: 20_000 }))], 10, 10_000);
    const start = clock.now();
    const fetch = createFetch({ fetch: server.fetch, clock, random: () => 0.5, profile: 'batch' });
    let end = start;
    const caller = async () => {
      for (let i = 0; i < 20; i++) await fetch(URL_A, post({ tokens: 1000 }));
      end = Math.max(end, clock.now());
    };
    await runUntilSettled(clock, Array.from({ length: 8 }, caller), 20, 7_200_000);
    expect(server.admitted()).toBe(161);
    expect(server.refused()).toBe(0);
    // The 4 calls of the first batch reach the server at 1.5 s; the 5th may go once they are answered.
    const fifth = server.log[5]!.at - start;
    expect(fifth).toBeLessThan(10_000);
    // 180,000 tokens less the 30,000 of a full bucket, at 500 tokens/s: 300 s at the least.
    expect(end - start).toBeLessThan(310_000);
  });
});
