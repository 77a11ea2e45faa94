/**
 * A fixed window or sliding log whose length is not a whole share of a second, stated in the IETF
 * form. The reference limiter states "a sub-second or fractional window ... as its rate over whole
 * seconds" (`quotaOf`, src/server/headers/quota.ts): 25 per 600 ms is `q=41;w=1`, 40 per 700 ms
 * `q=57;w=1`, 30 per 300 ms `q=100;w=1`.
 *
 * README ("How Headway reads a server", window model): a fixed window or sliding log is one where
 * "a counted unit is back no later than one window after the server counted it", and "a window's
 * quota is spent as soon as it is back (`quota: 'spend'`)".
 *
 * What happens instead (since 086d5c7, `windowLength` in src/client/models/window.ts): the window
 * is read as `w / k`, `k` the times the limit goes into `q` whole: 1000 / ⌊41 / 25⌋ = 1000 ms for
 * a window of 600 ms, 1000 / ⌊57 / 40⌋ = 1000 ms for 700 ms, 1000 / ⌊100 / 30⌋ = 333 ms for 300 ms.
 * Each unit is held up to 400 ms after the server gave it back, so whole windows go unused: the
 * key gets 25 a second where the server gives 25 per 600 ms (and states 41 a second). Before that
 * commit (`min(w, limit ÷ (q / w))`, 600 / 702 / 300 ms) every window was spent in full, with no
 * refusal.
 *
 * Found on 2026-12-06 (session 25, a review of that day's changes) against 086d5c7 (an IETF `q;w`
 * window read as `w` over the times the limit goes into `q` whole); the change was taken back the
 * same day, and this test keeps its regression out: it passes on the code without it. The figures
 * above are that change's, against the code before and after it.
 */
import { describe, expect, it } from 'vitest';
import { runBesideCotenant } from './window-cotenant.js';

describe('an IETF window whose length is not a whole share of the stated w (no other client)', () => {
  it.each([
    ['fixed-window', 25, 600],
    ['sliding-log', 25, 600],
    ['fixed-window', 40, 700],
    ['sliding-log', 30, 300],
  ] as const)(
    '%s %i per %i ms: every window after the first is spent in full',
    async (algorithm, limit, windowMs) => {
      const r = await runBesideCotenant({
        algorithm,
        headers: 'ietf',
        limit,
        windowMs,
        foreign: 0,
        callers: 8,
        oneWayMs: 2,
        windows: 20,
      });
      expect(r.refused).toEqual(r.refused.map(() => 0));
      const late = r.admitted.slice(1);
      expect(late.map((n) => n >= limit)).toEqual(late.map(() => true));
    },
  );
});
