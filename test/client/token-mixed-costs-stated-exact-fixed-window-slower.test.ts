/**
 * README (Token quotas, caveats): "Learned costs assume calls of one key cost alike. Mixed calls (a
 * chat and an embedding on one key) learn their median; give those a `key` of their own, or state
 * their cost." A cost stated exactly is neither low nor high: it should book what it states.
 *
 * a58c5ac (2026-12-06, taken back the same day) multiplied a stated token cost by
 * `max(1, learned ÷ median stated)`.
 * With calls of two sizes on one key, each stated EXACTLY (the README's remedy for mixed calls), the
 * learned cost (what `remaining` shows per call, high by design on a fixed window or a sliding log,
 * whose reset is read as a refill) and the median of the last 9 stated costs are medians of
 * different calls at different times, so their ratio is well above 1 while the small costs make
 * the stated median: every call was overbooked, and the job was done windows later. Without it the
 * stated costs are kept and the job fills each window.
 */
import { describe, expect, it } from 'vitest';
import { tokenMinuteJob } from './fixed-token-window-server.js';
import { post } from './token-fake-server.js';

/** 104 calls alternating `small` and `large` tokens, each stated exactly (the cost reads the body the server counts). */
const job = (algorithm: 'fixed' | 'sliding-log', small: number, large: number) =>
  tokenMinuteJob({
    algorithm,
    cost: (request) => ({ tokens: (JSON.parse(request.body ?? '{}') as { tokens: number }).tokens }),
    call: (c, i) => post({ tokens: (c + i) % 2 === 1 ? small : large }),
  });

describe('calls of two sizes on one key, each cost stated exactly, against a fixed or sliding-log token window', () => {
  it('fixed minute, 500 and 1,500 tokens (104,000 in all): done in the 4th minute, none refused', async () => {
    const run = await job('fixed', 500, 1500);
    expect(run.ok).toBe(104);
    // Observed: last call counted at 301.0 s (the 6th minute), 1 refusal; scaling reverted: 181.0 s, 0 refused.
    expect(run.doneMs).toBeLessThan(240_000);
    expect(run.refused).toBe(0);
  });

  it('fixed minute, 100 and 5,000 tokens (265,200 in all): done in the 11th minute', async () => {
    const run = await job('fixed', 100, 5000);
    expect(run.ok).toBe(104);
    // Observed: last call counted at 1,021.0 s (the 18th minute); scaling reverted: 600.5 s.
    expect(run.doneMs).toBeLessThan(660_000);
  });

  it('sliding log, 200 and 3,000 tokens (166,400 in all): done as soon as with the costs kept', async () => {
    const run = await job('sliding-log', 200, 3000);
    expect(run.ok).toBe(104);
    // Observed: last call counted at 364.5 s; scaling reverted: 304.0 s (1 refusal in both).
    expect(run.doneMs).toBeLessThan(330_000);
  });

  it('sliding log, 100 and 5,000 tokens: done as soon as with the costs kept', async () => {
    const run = await job('sliding-log', 100, 5000);
    // Observed: last call counted at 726.5 s, 104 answered; scaling reverted: 605.5 s (103 answered, 1
    // RateLimitedError: that run's own flaw, not asserted here).
    expect(run.doneMs).toBeLessThan(660_000);
  });
});
