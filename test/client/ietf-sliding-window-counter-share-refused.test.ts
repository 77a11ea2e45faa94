/**
 * A sliding window counter of 45 per 600 ms, which the reference limiter states in IETF form as
 * `RateLimit-Policy: q=75;w=1`: 16 callers, 2 ms each way.
 *
 * README ("How Headway reads a server"): every window with counters is followed by the bucket and
 * the window model at once; the window model is ruled out by "units back early while it counts
 * many" (a count that creeps back, as a sliding window counter's does), and the bucket then paces.
 * README (top): Headway "paces calls so the server never has to refuse them".
 *
 * What happens instead (since 086d5c7, `windowLength` in src/client/models/window.ts): the window
 * is read as `w / floor(q / limit)` = 1,000 ms, far longer than the counter's 600 ms. Its creeping
 * count never reads as early returns against a 1 s ledger, so the window model is never ruled out
 * and keeps spending "a window's quota at once" whenever its ledger says 45 are back: the counter,
 * still weighing the window before, refuses up to 12 of each such burst. Same deterministic run,
 * 20 s: before 086d5c7 (600 ms; the window model ruled out, the stated rate paced) 1,417 admitted,
 * 0 refused; now 857 admitted, 35 refused.
 *
 * Found on 2026-12-06 (session 25, a review of that day's changes) against 086d5c7 (an IETF `q;w`
 * window read as `w` over the times the limit goes into `q` whole); the change was taken back the
 * same day, and this test keeps its regression out: it passes on the code without it. The figures
 * above are that change's, against the code before and after it.
 */
import { expect, it } from 'vitest';
import { runAgainstChangingServer } from './changing-server.js';

const sum = (a: number[]) => a.reduce((x, y) => x + y, 0);

it('an IETF sliding window counter of 45 per 600 ms (q=75;w=1) is paced without refusals', async () => {
  const run = await runAgainstChangingServer({
    before: { policy: { limit: 45, windowMs: 600 }, algorithm: 'sliding-window-counter', headers: 'ietf' },
    changeAtMs: 0,
    callers: 16,
    oneWayMs: 2,
    seconds: 20,
  });
  expect({ refused: sum(run.refused), atLeast1300: sum(run.admitted) >= 1300 }).toEqual({
    refused: 0,
    atLeast1300: true,
  });
});
