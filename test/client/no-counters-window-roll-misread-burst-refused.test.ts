/**
 * A fixed window of 100 per second that states nothing but `Retry-After` (dialect `none`), 16
 * callers calling in a loop, 2 ms each way (no-counters-window-trickle.test.ts runs 8).
 *
 * The no-counters model's TSDoc (src/client/models/no-counters.ts) and a69767c: after a window's
 * burst "one call at a time, 25 ms apart, finds the boundary, or shows the window came round
 * (`rolled`)"; its commit: "From 10 s on the key gets its whole window, refused once a window
 * where it finds the boundary".
 *
 * What happens instead: at 16.995 s the probe and the burst left just before the window's end:
 * 17 units were counted in the window ending at 17 s and the other 84 in the next one. The calls
 * then sent one at a time were admitted past "what one window holds" (the burst, the cushion and
 * a unit of slack), so `rolled` took the window for come round, and sent its burst less those
 * calls at once, all 16 callers together, into a window that held 90 already: 14 admitted, 16
 * refused at 17.172 s, and the key closed for a whole `Retry-After`. `rolled` counts every unit of
 * the burst in the window before, where a burst that straddled the boundary put most of them in
 * the new one. The same deterministic run before a69767c (with the trickle it fixed) had no
 * refusal at all from 9 s on; now 16 refusals in one second (and 17 admitted in the second before).
 *
 * Found on 2026-12-06 (session 25, a review of that day's changes) against a69767c (a no-counters
 * window read as come round when the calls after its burst are admitted past what it held); the
 * change was taken back the same day, and this test keeps its regression out: it passes on the
 * code without it. The figures above are that change's, against the code before and after it.
 */
import { expect, it } from 'vitest';
import { runAgainstChangingServer } from './changing-server.js';

it('a window told only by Retry-After is refused at most once a window, never a whole burst at once', async () => {
  const run = await runAgainstChangingServer({
    before: { policy: { limit: 100, windowMs: 1000 }, algorithm: 'fixed-window', headers: 'none' },
    changeAtMs: 0,
    callers: 16,
    oneWayMs: 2,
    seconds: 20,
  });
  const late = run.refused.slice(10);
  expect(Math.max(...late)).toBeLessThanOrEqual(1);
});
