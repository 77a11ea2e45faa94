/**
 * A fixed window of 15 per 200 ms (75 a second) that states nothing but `Retry-After` (dialect
 * `none`: whole seconds, so `Retry-After: 1`, five windows long), 16 callers calling in a loop.
 *
 * README ("How Headway reads a server"): "A window (episodes that need less refill than the cycle
 * rate) gets its quota at once — at least the most units one of its episodes admitted — then one
 * call at a time finds its boundary, refused there once per cycle. When those calls are admitted
 * past what one window was seen to hold, the window came round without a refusal ... and the quota
 * less them goes at once, where before the key stayed at that trickle (34 a second against a
 * window of 100)."
 *
 * What happens instead, since a69767c (src/client/models/no-counters.ts): the burst is now at
 * least `windowLimit` (15), so it fills the window by itself and the first call after it is
 * refused inside the same 200 ms window: one window of five per 1 s cycle, 15 a second (seconds
 * 3–9). Each such cycle adds an episode that is a full burst and a refusal 30–60 ms later; after
 * six of them the episodes that showed a window have aged out of the six kept (`MAX_EPISODES`),
 * `learn` finds rates above the cycle rate consistent (`window = rates.high < cycleRate` is
 * false), and the key is paced as a bucket at 1.05 × the cycle rate: 17–18 a second, with no
 * refusal ever again, so nothing is learned again. Before those commits the key held the trickle
 * of one call at a time, 37 a second, with no refusal after the second second.
 *
 * Found on 2026-12-06 (session 25, a review of that day's changes) against a69767c (a no-counters
 * window read as come round when the calls after its burst are admitted past what it held, and its
 * burst at least what one window held); the change was taken back the same day, and this test
 * keeps its regression out: it passes on the code without it. The figures above are that change's,
 * against the code before and after it.
 */
import { expect, it } from 'vitest';
import { runAgainstChangingServer } from './changing-server.js';

it('a 200 ms window told only by Retry-After is not paced below what the trickle sent before', async () => {
  const run = await runAgainstChangingServer({
    before: { policy: { limit: 15, windowMs: 200 }, algorithm: 'fixed-window', headers: 'none' },
    changeAtMs: 0,
    callers: 16,
    oneWayMs: 1,
    seconds: 30,
  });
  const late = run.admitted.slice(15);
  expect(late.map((n) => n >= 30)).toEqual(late.map(() => true));
});
