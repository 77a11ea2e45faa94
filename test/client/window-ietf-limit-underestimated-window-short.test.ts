/**
 * IETF `RateLimit-Policy: q=100;w=1` over a fixed window of 100 per second, shared with another
 * client that spends 10 at each window's start. The window model takes the limit as the most
 * `remaining` ever seen plus one (91) and the window as limit ÷ stated rate (910 ms, shorter than
 * the stated `w` of 1 s): the ledger gives the first window's units back 90 ms before the server
 * does, the send made on them is refused, and the model is ruled out for good.
 *
 * Fixed on 2026-12-06 (session 25): a stated `q;w` is read as counted in a whole share of `w`,
 * `w / k` with `k` the times the read limit goes into `q` whole (`windowLength` in
 * models/window.ts): a limit of 91 of `q=100` reads the window as `w`, where a server counting 10
 * per 50 ms under `q=200;w=1` still reads as 50 ms. What the text above describes is how it
 * behaved before.
 */
import { describe, expect, it } from 'vitest';
import { runBesideCotenant } from './window-cotenant.js';

describe('a fixed window (ietf, q=100;w=1) shared with another client that spends 10 of each 100 at its start', () => {
  it.each(['fixed-window', 'sliding-log'] as const)(
    '%s: no unit is read back before the stated window of 1 s; no 429 after the first window',
    async (algorithm) => {
      const r = await runBesideCotenant({
        algorithm,
        headers: 'ietf',
        limit: 100,
        windowMs: 1000,
        foreign: 10,
        callers: 12,
        oneWayMs: 2,
        windows: 6,
      });
      expect(r.refused.slice(1)).toEqual([0, 0, 0, 0, 0]);
      expect(r.source).toBe('window');
    },
  );
});
