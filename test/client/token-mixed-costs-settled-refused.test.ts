/**
 * README (Token quotas): "Mixed calls ... give those a `key` of their own, or state their cost";
 * and the first promise: "**paces** calls so the server never has to refuse them".
 *
 * The README's own setup (`cost` stating tokens, `settleCost: openaiUsage`) on a key whose calls
 * come in two sizes, each cost stated EXACTLY, against OpenAI's shape (token bucket refilled
 * continuously). a58c5ac (2026-12-06, taken back the same day) scaled a stated cost by the learned
 * cost (here the median of the last 9 settled calls) over the median of the last 9 STATED: the two
 * sets are different calls (stated at booking, settled at answer), so when the small ones make one
 * median and the large ones the other, the ratio is 20–50 and every call is booked 20–50 times its
 * cost. The server then refused calls it never refused without the scaling (0 refusals).
 */
import { describe, expect, it } from 'vitest';
import { openaiUsage } from '../../src/client/llm-cost.js';
import { tokenBucketJob } from './token-fake-server.js';

/** 104 calls alternating `small` and `large` tokens, each stated exactly, settled by `openaiUsage` (OpenAI's shape). */
const job = (small: number, large: number) =>
  tokenBucketJob({
    shape: 'openai',
    tokens: (c, i) => ((c + i) % 2 === 1 ? small : large),
    cost: (request) => ({ tokens: (JSON.parse(request.body ?? '{}') as { tokens: number }).tokens }),
    settleCost: openaiUsage,
  });

describe('calls of two sizes, costs stated exactly and settled with openaiUsage (OpenAI shape)', () => {
  it.each([
    [100, 5000, 4],
    [200, 5000, 4],
    [100, 4000, 4],
  ] as const)('%i and %i tokens: every call answered, none refused', async (small, large, observed) => {
    const run = await job(small, large);
    expect(run.failed).toEqual([]);
    // Observed: `observed` (4) refusals in each; with the scaling reverted 0.
    expect(run.refused, `observed ${observed} refusals with a58c5ac`).toBe(0);
  });
});
