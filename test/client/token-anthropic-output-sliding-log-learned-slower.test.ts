/**
 * README (Token quotas, caveats): "Tried on 2026-12-06 and taken back: reading a refusal's hint
 * well short of the window's reset as a rate in the units booked, `(cost − remaining) / hint` ...
 * a window that gives tokens back in steps hints when its oldest units return" — this test keeps
 * that change (0e8c122, `readRefusalHint`) out: it fails with it and passes without it.
 *
 * Anthropic's split windows, each counted as a sliding log: calls state their input tokens
 * (`llmCost`-style) and leave the output tokens to be learned; the output window binds. A call
 * whose output is above the learned cost is refused with a few tokens left short of its booking,
 * and the hint is when the log's OLDEST output tokens are back, not its reset:
 * `(cost − remaining) / hint` reads a few tokens a second, and the key paces the output window at
 * that until a later estimate replaces it. The job's output tokens (31,200 against 8,000 a minute)
 * need four windows; learning the cost took one more before `readRefusalHint` (0e8c122), and two
 * since.
 */
import { describe, expect, it } from 'vitest';
import { algorithmTokenJob } from './algorithm-token-server.js';
import { post } from './token-fake-server.js';

describe("Anthropic's split windows as sliding logs, output tokens learned", () => {
  it('calls of 1,000 input and 200 or 400 output tokens: answered within one window of the minimum', async () => {
    const run = await algorithmTokenJob(
      {
        shape: 'anthropic',
        windows: [
          { unit: 'requests', algorithm: 'token-bucket', limit: 500, windowMs: 60_000 },
          { unit: 'input-tokens', algorithm: 'sliding-log', limit: 100_000, windowMs: 60_000 },
          { unit: 'output-tokens', algorithm: 'sliding-log', limit: 8_000, windowMs: 60_000 },
        ],
      },
      {
        cost: () => ({ 'input-tokens': 1000 }),
        call: (caller, i) => post({ input: 1000, output: (caller + i) % 2 === 1 ? 200 : 400 }),
      },
    );
    expect(run.failed).toEqual([]);
    expect(run.ok).toBe(104);
    // 52 × 200 + 52 × 400 = 31,200 output tokens at 8,000 a minute: the fourth window (180–240 s)
    // is the minimum, one window more for learning ends at 300 s.
    // Observed on 0e8c122: the last call counted at 302.8 s (2 refusals); on 28a4b52 (before): 244.5 s.
    expect(run.doneMs).toBeLessThan(300_000);
  });
});
