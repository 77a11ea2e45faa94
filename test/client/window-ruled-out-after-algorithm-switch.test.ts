/**
 * A deploy switches a server from a token bucket to a fixed window (or a sliding log) of the same
 * figures, 100 per second, IETF headers.
 *
 * README ("How Headway reads a server"): "Every window with counters is followed by the bucket and
 * the window model at once; the first that the evidence has not contradicted governs, and when
 * both have been, the one contradicted longest ago does — so the pacer changes its mind when the
 * server does." A client that starts against the window server is never refused.
 *
 * What happens instead: within the first 60 ms against the token bucket, its refill (units back
 * long before a sliding log could give them back, while it counts many) rules the window model out
 * for good (`falsifiedAt = Infinity`). After the switch the bucket model, contradicted by a refusal
 * in every window, still governs, since a model ruled out never governs again: one 429 per window
 * for as long as the client runs.
 *
 * Fixed on 2026-12-06 (the fifth review round): a model ruled out for good starts afresh after
 * three refusals of the one governing in its place. What the text above describes is how it behaved
 * before.
 */
import { describe, expect, it } from 'vitest';
import { runAgainstChangingServer } from './changing-server.js';

describe('a server that switches from a token bucket to a window (100 per second, IETF)', () => {
  it.each(['fixed-window', 'sliding-log'] as const)(
    'token-bucket → %s: refusals stop within a few windows of the change',
    async (algorithm) => {
      const run = await runAgainstChangingServer({
        before: { policy: { limit: 100, windowMs: 1000 }, algorithm: 'token-bucket', headers: 'ietf' },
        after: { policy: { limit: 100, windowMs: 1000 }, algorithm, headers: 'ietf' },
        changeAtMs: 4000,
        callers: 8,
        oneWayMs: 2,
        seconds: 20,
      });
      expect(run.refused.slice(0, 4)).toEqual([0, 0, 0, 0]);
      const late = run.refused.slice(8);
      expect(late).toEqual(late.map(() => 0));
    },
  );

  it('control: the same window server from the start is never refused', async () => {
    const run = await runAgainstChangingServer({
      before: { policy: { limit: 100, windowMs: 1000 }, algorithm: 'fixed-window', headers: 'ietf' },
      changeAtMs: 0,
      callers: 8,
      oneWayMs: 2,
      seconds: 12,
    });
    expect(run.refused).toEqual(run.refused.map(() => 0));
  });
});
