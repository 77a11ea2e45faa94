/**
 * A fixed window of 50 units per 500 ms that states nothing but `Retry-After` (dialect `none`,
 * `Retry-After: 1`, whole seconds), calls that cost 2 units (the server's `cost` and the client's
 * `cost` agree), 4 callers, 2 ms each way, 30 s on the manual clock.
 *
 * The no-counters model's TSDoc (src/client/models/no-counters.ts) and a69767c: a window's calls
 * sent one at a time after its burst that are admitted past what one window held show "the window
 * came round": "its burst less those calls goes at once" so the key is not left at a trickle.
 *
 * What happens instead: since a69767c the key settles into the window rhythm: 48 units at once,
 * calls one at a time to the boundary, one refusal, then a 1 s `Retry-After` that holds the key
 * through a whole 500 ms window of the server's. 50 units a second with a refusal nearly every
 * second, where the code before a69767c paced the same server at 68–70 units a second with no
 * refusal from 5 s on. Same deterministic run, seconds 10–29: before, 1,380 units admitted and 0
 * refused; now 982 admitted and 18 refused (whole run: 1,988 / 8 against 1,530 / 30).
 *
 * Found on 2026-12-06 (session 25, a review of that day's changes) against a69767c (a no-counters
 * window read as come round when the calls after its burst are admitted past what it held); the
 * change was taken back the same day, and this test keeps its regression out: it passes on the
 * code without it. The figures above are that change's, against the code before and after it.
 */
import { expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { createFetch } from '../../src/index.js';
import { rateLimit } from '../../src/server/index.js';

const sum = (a: number[]) => a.reduce((x, y) => x + y, 0);

it('a 500 ms window told only by Retry-After, calls of 2 units: no slower than pacing, no refusal a second', async () => {
  const start = 10_000_000;
  const seconds = 30;
  const clock = new ManualClock(start, Date.UTC(2026, 0, 1) + start);
  const limiter = rateLimit({
    policy: { limit: 50, windowMs: 500 },
    algorithm: 'fixed-window',
    headers: 'none',
    cost: () => 2,
    clock,
  });
  const admitted = Array.from({ length: seconds + 1 }, () => 0);
  const refused = Array.from({ length: seconds + 1 }, () => 0);
  const transport = async (input: RequestInfo | URL) => {
    await clock.sleep(2);
    const t = clock.now() - start;
    const outcome = await limiter.check(
      { method: 'GET', url: String(input), headers: new Headers() },
      { ip: '192.0.2.1' },
    );
    if (outcome.allowed) admitted[Math.floor(t / 1000)]! += 2;
    else refused[Math.floor(t / 1000)]!++;
    await clock.sleep(2);
    return new Response(null, { status: outcome.status, headers: new Headers([...outcome.headers]) });
  };
  const fetch = createFetch({ fetch: transport, clock, random: () => 0.5, cost: () => 2 });
  let stop = false;
  const caller = async () => {
    while (!stop) await fetch('http://api.test/items').catch(() => undefined);
  };
  const all = Promise.all(Array.from({ length: 4 }, caller));
  for (let ms = 0; ms < seconds * 1000; ms++) await clock.advance(1);
  stop = true;
  for (let ms = 0; ms < 120_000 && clock.pending > 0; ms++) await clock.advance(1);
  await all;
  const late = { admitted: sum(admitted.slice(10, seconds)), refused: sum(refused.slice(10, seconds)) };
  expect({ atLeast1300: late.admitted >= 1300, refused: late.refused }).toEqual({
    atLeast1300: true,
    refused: 0,
  });
});
