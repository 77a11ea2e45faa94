/**
 * README (Token quotas): "Until the first answers, the token cost of an unstated call is unknown
 * [...]: Headway is slow for a moment, never fast."; the bucket model's rate estimate (bucket.ts):
 * "Between two readings A and B the server refilled `rB − rA + sent(A..B]` units".
 *
 * Instead, since 502a98e an unconfigured batch against a bucket of 10,000 tokens a minute (166.7
 * tokens/s) learns a refill rate of 4.6 tokens/s and sends nothing for 200 s. The first answer's
 * reading (9,000 left) is the estimate's anchor, with token mark 0; the 3 other calls of the first
 * batch booked no tokens, are counted by the server after that reading, and never enter the token
 * marks (`sent(A..B]` lacks their 3,000 tokens): 19 s later the refill reads 85 tokens. At
 * 502a98e~1 the same batch had one refusal right after the first answers, which restarted the
 * estimate; `#unbooked` now (rightly) keeps that refusal away, and the estimate then spans the
 * unbooked calls. The job took 901 s at 502a98e~1 and takes 1,042 s now.
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
import { llmServer, lowestTokenRate, post } from './token-fake-server.js';

const URL_A = 'http://127.0.0.1:9/v1/chat/completions';

describe('learned token cost: the calls sent before it was known, and the learned rate', () => {
  it('an unconfigured batch learns the token refill rate, and no call waits 200 s', async () => {
    const clock = new ManualClock();
    const server = llmServer(clock, {
      latencyMs: 500,
      requests: { limit: 5000, windowMs: 60_000 },
      tokens: { limit: 10_000, windowMs: 60_000 },
    });
    const fetch = createFetch({ fetch: server.fetch, clock, random: () => 0.5, profile: 'batch' });
    let end = 0;
    const caller = async () => {
      for (let i = 0; i < 20; i++) await fetch(URL_A, post({ tokens: 1000 }));
      end = Math.max(end, clock.now());
    };
    const jobs = Promise.all(Array.from({ length: 8 }, caller));
    const watch = lowestTokenRate(clock, fetch, jobs);
    await runUntilSettled<unknown>(clock, [jobs, watch], 20, 7_200_000);
    const lowestRate = await watch;
    expect(server.admitted()).toBe(160);
    const admitted = server.log.filter((e) => e.status === 200).map((e) => e.at);
    let longestGap = 0;
    for (let i = 1; i < admitted.length; i++)
      longestGap = Math.max(longestGap, admitted[i]! - admitted[i - 1]!);
    // The server refills 10,000 tokens a minute: 166.7 a second.
    expect(lowestRate).toBeGreaterThan(100);
    // One call of 1,000 tokens is back in 6 s.
    expect(longestGap).toBeLessThan(15_000);
    expect(end).toBeLessThan(910_000);
  });
});
