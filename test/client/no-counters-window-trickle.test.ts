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
 */
// Known issue, open (README, Limits: "Known issues found by the review rounds"): marked `it.fails`
// so the suite reproduces it on every run; when a fix lands this test fails, and `.fails` comes off.
import { expect, it } from 'vitest';
import { runAgainstChangingServer } from './changing-server.js';

it.fails('a fixed window told only by Retry-After keeps getting its window, not a trickle of a third of it', async () => {
  const run = await runAgainstChangingServer({
    before: { policy: { limit: 100, windowMs: 1000 }, algorithm: 'fixed-window', headers: 'none' },
    changeAtMs: 0,
    callers: 8,
    oneWayMs: 2,
    seconds: 20,
  });
  const late = run.admitted.slice(10);
  // Observed: [35,34,35,34,35,34,35,34,35,34] (from 9 s on, with no refusal at all)
  expect(late.map((n) => n >= 50)).toEqual(late.map(() => true));
});
