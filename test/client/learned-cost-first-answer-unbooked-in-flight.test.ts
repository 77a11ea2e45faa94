/**
 * README (Token quotas): "Until the first answers, the token cost of an unstated call is unknown
 * (the first few calls go as the small initial window allows) ... Headway is slow for a moment,
 * never fast."
 *
 * Instead, a batch with no `cost` option is refused right after the first answers. The first 4
 * calls went with no token cost known, so they were booked at 0 tokens (`src/client/pacer.ts`,
 * `#costIn` / `#booked`: `(learned ?? 0)`). The first answer teaches 1,000 tokens a call and
 * states 29,000 left, but the 3 calls still in flight (already counted by the server, not yet in
 * that answer) stay booked at 0: the token track re-syncs to 29,000 − 0 in flight and sends 28
 * more calls into the 26,000 really left. Counting the calls in flight at the cost just learned
 * keeps the batch within the window.
 *
 * Open (2026-12-06, session 25, `it.fails`, README Token quotas). Tried the same day and taken
 * back: counting the calls in flight that booked nothing in a unit at its learned cost stopped
 * these refusals, but the first sample is high by design when another client has spent part of the
 * window, and the key then stalled for 100 s, or learned its refill from a wrong starting point
 * and waited 200 s for one call (learned-cost-high-first-sample-unbooked-stall.test.ts and
 * learned-cost-unbooked-rate-misread-stall.test.ts keep it out).
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

describe('learned token cost: the calls sent before it was known', () => {
  it.fails('a batch of 60 unconfigured calls is not refused once the first answers teach the cost', async () => {
    const clock = new ManualClock();
    // OpenAI's shape: 500 RPM, 30,000 TPM (buckets refilled continuously), answers in 500 ms.
    const server = llmServer(clock, {
      latencyMs: 500,
      requests: { limit: 500, windowMs: 60_000 },
      tokens: { limit: 30_000, windowMs: 60_000 },
    });
    const fetch = createFetch({ fetch: server.fetch, clock, random: () => 0.5 });
    const calls = Array.from({ length: 60 }, () => fetch(URL_A, post({ tokens: 1000 })));
    const results = await runUntilSettled(clock, calls, 20, 3_600_000);
    expect(results.every((r) => r.status === 'fulfilled' && r.value.status === 200)).toBe(true);
    expect(fetch.stats()[0]?.learned.costs.tokens).toBeCloseTo(1000, 0);
    expect(server.refused()).toBe(0);
  });
});
