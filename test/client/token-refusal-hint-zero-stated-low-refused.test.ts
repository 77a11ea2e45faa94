/**
 * README (Token quotas, caveats): "Tried on 2026-12-06 and taken back: reading a refusal's hint
 * well short of the window's reset as a rate in the units booked, `(cost − remaining) / hint` ...
 * a window that gives tokens back in steps hints when its oldest units return" — this test keeps
 * that change (0e8c122, `readRefusalHint`) out: it fails with it and passes without it.
 *
 * A hint of 0 (`Retry-After: 0`, `retry-after-ms: 0`, as some gateways answer every 429) or 1 ms
 * is "well short" of any reset, but it says nothing of when tokens come back: it lifts the hold,
 * and the rate it states (`(cost − remaining) / 1 ms`) bounds nothing. The same OpenAI-shaped token
 * bucket and job as `token-cost-stated-low.test.ts`, its refusals hinting 0 or 1 ms: a cost stated
 * 30 % low is then refused every other call, as half the cost is, and calls end in 429. Before
 * `readRefusalHint` (0e8c122) the hold stood and every call was answered.
 */
import { describe, expect, it } from 'vitest';
import { algorithmTokenJob } from './algorithm-token-server.js';
import { post } from './token-fake-server.js';

/** 500 requests and 30,000 tokens a minute, both token buckets (OpenAI's shape); refusals hint `hintMs`. */
const bucketsHinting = (hintMs: number) => ({
  hintMs: () => hintMs,
  windows: [
    { unit: 'requests', algorithm: 'token-bucket', limit: 500, windowMs: 60_000 },
    { unit: 'tokens', algorithm: 'token-bucket', limit: 30_000, windowMs: 60_000 },
  ] as const,
});

describe('a token bucket whose refusals hint 0 or 1 ms, the cost stated 30 % low', () => {
  it.each([0, 1])('hint %i ms, 1,000 tokens stated as 700: every call answered', async (hintMs) => {
    const run = await algorithmTokenJob(bucketsHinting(hintMs), {
      cost: () => ({ tokens: 700 }),
      call: () => post({ tokens: 1000 }),
    });
    // Observed on 0e8c122 (both hints): 87 answered, 17 ended in 429, 58 refusals, the last call
    // at 114.7 s; on 28a4b52 (before): 104 answered, 6 refusals, 188.8 s (the hold at each
    // `remaining: 0`).
    expect(run.failed).toEqual([]);
    expect(run.ok).toBe(104);
  });
});
