/**
 * A deploy lowers an IETF server's window from 100 to 20 per second.
 *
 * README ("How Headway reads a server"): the models follow the server "so the pacer changes its
 * mind when the server does"; the window model's limit is "the stated limit" (IETF:
 * `RateLimit-Policy: "default";q=100;w=60` maps to "limit 100"). The same lowering in
 * `X-RateLimit-*` is followed at once (window-server-edges.test.ts), and a client that starts
 * against the 20-per-second server is never refused.
 *
 * What happens instead: in the IETF dialect the window model's limit is the most `remaining` ever
 * seen plus one, which never comes down: after `q=20;w=1` it still reads a window of 100 (5 s
 * long at the stated 20/s), every reading counts far more than that window explains, and the
 * bucket model governs a fixed window: one 429 in most windows, for as long as the client runs.
 *
 * Fixed on 2026-12-06 (the fifth review round): in the IETF form the window's limit (the most seen
 * left, plus one) is at most the stated `q`, so a lowered quota lowers it. What the text above
 * describes is how it behaved before.
 */
import { describe, expect, it } from 'vitest';
import { runAgainstChangingServer } from './changing-server.js';

describe('an IETF window server whose limit is lowered (100 → 20 per second)', () => {
  it.each(['fixed-window', 'sliding-log'] as const)(
    '%s: refusals stop within a few windows of the change',
    async (algorithm) => {
      const run = await runAgainstChangingServer({
        before: { policy: { limit: 100, windowMs: 1000 }, algorithm, headers: 'ietf' },
        after: { policy: { limit: 20, windowMs: 1000 }, algorithm, headers: 'ietf' },
        changeAtMs: 4000,
        callers: 8,
        oneWayMs: 2,
        seconds: 20,
      });
      // The first four windows at 100, unrefused; the change at 4 s may cost the windows right after it.
      expect(run.refused.slice(0, 4)).toEqual([0, 0, 0, 0]);
      const late = run.refused.slice(8);
      expect(late).toEqual(late.map(() => 0));
    },
  );
});
