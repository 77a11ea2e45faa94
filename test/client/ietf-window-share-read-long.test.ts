/**
 * A window that counts a share of the IETF `w` that the limit does not divide: the reference
 * limiter's fixed window (and sliding log) of 45 per 600 ms states `RateLimit-Policy: q=75;w=1`
 * (its rate over whole seconds), 16 callers.
 *
 * README ("How Headway reads a server", the window model): it paces "a ledger of answered units,
 * each back by `answer + window`" and "a window's quota is spent as soon as it is back"; the
 * window model "explains fixed window, sliding log: a counted unit is back no later than one
 * window after the server counted it". A client that spends each 600 ms window as it comes back
 * gets 75 a second.
 *
 * What happens instead (since 086d5c7, `windowLength` in src/client/models/window.ts): the window
 * is read as `w / k`, `k` the times the read limit 45 goes into `q` = 75 whole: k = 1, a window of
 * 1,000 ms where the server counts in 600 ms. Each unit is held back 400 ms longer than the server
 * holds it: 45 a second, flat. Before that commit (`min(w, limit ÷ (q / w))` = 600 ms) the same
 * deterministic run admitted 1,505 (fixed window) and 1,485 (sliding log) over 20 s with 0
 * refusals; now 900 and 900, 0 refusals: 40 % of the server's rate lost.
 *
 * Found on 2026-12-06 (session 25, a review of that day's changes) against 086d5c7 (an IETF `q;w`
 * window read as `w` over the times the limit goes into `q` whole); the change was taken back the
 * same day, and this test keeps its regression out: it passes on the code without it. The figures
 * above are that change's, against the code before and after it.
 */
import { describe, expect, it } from 'vitest';
import type { AlgorithmName } from '../../src/server/index.js';
import { runAgainstChangingServer } from './changing-server.js';

const sum = (a: number[]) => a.reduce((x, y) => x + y, 0);

describe('an IETF window of 45 per 600 ms stated as q=75;w=1', () => {
  it.each([
    ['fixed-window', 900],
    ['sliding-log', 900],
  ] as const)('%s: the client gets about 75 a second, not 45', async (algorithm: AlgorithmName, observed) => {
    const run = await runAgainstChangingServer({
      before: { policy: { limit: 45, windowMs: 600 }, algorithm, headers: 'ietf' },
      changeAtMs: 0,
      callers: 16,
      oneWayMs: 2,
      seconds: 20,
    });
    expect(sum(run.refused)).toBe(0);
    expect(sum(run.admitted), `observed ${observed}`).toBeGreaterThanOrEqual(1350);
  });
});
