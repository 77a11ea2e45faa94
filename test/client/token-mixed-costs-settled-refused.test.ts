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
import { createFetch } from '../../src/client/create-fetch.js';
import { openaiUsage } from '../../src/client/llm-cost.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { runUntilSettled } from './fake-server.js';
import { llmServer, post } from './token-fake-server.js';

/** 8 callers, 13 calls each (104), alternating `small` and `large` tokens, stated exactly: 500 RPM, 30,000 TPM. */
async function job(small: number, large: number) {
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
    cost: (request) => ({ tokens: (JSON.parse(request.body ?? '{}') as { tokens: number }).tokens }),
    settleCost: openaiUsage,
  });
  const statuses: number[] = [];
  const caller = async (c: number) => {
    for (let i = 0; i < 13; i++) {
      const tokens = (c + i) % 2 === 1 ? small : large;
      await fetch('http://127.0.0.1:9/v1/chat/completions', post({ tokens })).then(
        (response) => statuses.push(response.status),
        () => statuses.push(-1),
      );
    }
  };
  await runUntilSettled(
    clock,
    Array.from({ length: 8 }, (_, c) => caller(c)),
    20,
    3_600_000,
  );
  return { ok: statuses.filter((s) => s === 200).length, refused: server.refused() };
}

describe('calls of two sizes, costs stated exactly and settled with openaiUsage (OpenAI shape)', () => {
  it.each([
    [100, 5000, 4],
    [200, 5000, 4],
    [100, 4000, 4],
  ] as const)('%i and %i tokens: every call answered, none refused', async (small, large, observed) => {
    const run = await job(small, large);
    expect(run.ok).toBe(104);
    // Observed: `observed` (4) refusals in each; with the scaling reverted 0.
    expect(run.refused, `observed ${observed} refusals with a58c5ac`).toBe(0);
  });
});
