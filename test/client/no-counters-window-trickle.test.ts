/**
 * A fixed window of 100 per second that states nothing but `Retry-After` (dialect `none`), eight
 * callers calling in a loop. (The server does not change; the client's model of it does, 8 s in:
 * this is also where a key lands once its server's counters are gone for good.)
 *
 * README ("How Headway reads a server"): the no-counters model reads such a server "as a window
 * as a `Q` of its limit that comes back once per `Retry-After`", and after each gate sends "the
 * largest burst the refusals allow"; for a window, "the window's quota at once, a gate, again"
 * (README Limits, proxies). A client that sends freely and only obeys `Retry-After` gets a whole
 * window at least every other second: 50 per second or more.
 *
 * What happens instead: once the episodes read as a window (`learn`: `rates.high < cycleRate`),
 * the pace is 0 after the burst and "one call at a time finds the boundary": one call 25 ms after
 * the last answer (`tokenDelay`'s probe interval), about 34 calls a second. A window of 100 per
 * second is never exhausted by that trickle, so no refusal ever comes to start the next cycle:
 * the key stays at a third of the server's rate for good (and `stats()` reports `rate` 88 with
 * `tokens` falling below −100).
 *
 * Fixed on 2026-12-06 (session 25): a window's calls after its burst that are admitted past what
 * one window was seen to hold (the most units an episode since the blind one admitted before its
 * refusal) show the window came round without a refusal; those calls are the most the new window
 * holds of the key's, and its burst less them goes at once (`rolled` in models/no-counters.ts). The
 * burst of a window is at least what one window was seen to hold. From 10 s on the key gets its
 * whole window, refused once a window where it finds the boundary. What the text above describes
 * is how it behaved before.
 */
import { expect, it } from 'vitest';
import { runAgainstChangingServer } from './changing-server.js';

it('a fixed window told only by Retry-After keeps getting its window, not a trickle of a third of it', async () => {
  const run = await runAgainstChangingServer({
    before: { policy: { limit: 100, windowMs: 1000 }, algorithm: 'fixed-window', headers: 'none' },
    changeAtMs: 0,
    callers: 8,
    oneWayMs: 2,
    seconds: 20,
  });
  const late = run.admitted.slice(10);
  expect(late.map((n) => n >= 90)).toEqual(late.map(() => true));
  expect(Math.max(...run.refused.slice(10))).toBeLessThanOrEqual(1);
});
