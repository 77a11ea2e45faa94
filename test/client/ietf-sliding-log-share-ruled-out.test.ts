/**
 * A sliding log of 30 per 300 ms, which the reference limiter states in IETF form as
 * `RateLimit-Policy: q=100;w=1` (its rate over a whole second): one caller, 2 ms each way.
 *
 * README ("How Headway reads a server"): the window model explains "fixed window, sliding log: a
 * counted unit is back no later than one window after the server counted it"; it is ruled out by
 * "units back early while it counts many". A sliding log that gives each unit back one window
 * after it counted it is what the model is for: it should keep governing, with no refusal.
 *
 * What happens instead (since 086d5c7, `windowLength` in src/client/models/window.ts): the window
 * is read as `w / floor(q / limit)` = 1,000 / 3 = 333 ms where the server counts 300 ms. The
 * sliding log gives units back 33 ms before the ledger says, while it still counts many: that is
 * read as a count that creeps back, and the window model is ruled out for good at 354 ms. The
 * bucket model then paces at `q / w` = 100/s with a burst of 30 against a log of 30 per 300 ms:
 * a refusal about every 1.2 s, each followed by a 1 s `Retry-After`. Same deterministic run, 20 s:
 * before 086d5c7 (window read as `min(w, limit ÷ (q / w))` = 300 ms) 1,980 admitted, 0 refused;
 * now 635 admitted, 15 refused.
 *
 * Found on 2026-12-06 (session 25, a review of that day's changes) against 086d5c7 (an IETF `q;w`
 * window read as `w` over the times the limit goes into `q` whole); the change was taken back the
 * same day, and this test keeps its regression out: it passes on the code without it. The figures
 * above are that change's, against the code before and after it.
 */
import { expect, it } from 'vitest';
import { runAgainstChangingServer } from './changing-server.js';

const sum = (a: number[]) => a.reduce((x, y) => x + y, 0);

it('an IETF sliding log of 30 per 300 ms (q=100;w=1) is followed as a window, not refused every second', async () => {
  const run = await runAgainstChangingServer({
    before: { policy: { limit: 30, windowMs: 300 }, algorithm: 'sliding-log', headers: 'ietf' },
    changeAtMs: 0,
    callers: 1,
    oneWayMs: 2,
    seconds: 20,
  });
  expect({ refused: sum(run.refused), atLeast1800: sum(run.admitted) >= 1800 }).toEqual({
    refused: 0,
    atLeast1800: true,
  });
});
