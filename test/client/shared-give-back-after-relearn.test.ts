/**
 * README, "More than one process": a learned fleet "re-books at new figures when they move by more
 * than 10 %", and "A call never sent gives its units back ... so the fleet's next bookings do not
 * wait behind slots nobody uses" — its units, one slot each at the rate the bucket is booked at.
 *
 * A call booked at the old figures and given back after the figures moved goes back at the figures
 * booked at now. (At its old limit, the store refilled the shared bucket at the old, faster rate for
 * the whole time since its last write: here the server's policy drops from 100/s to 10/s, and the
 * give-back of a call aborted 145 ms after the bookings refilled those 145 ms at 100/s (14.5 units)
 * instead of 10/s (1.45); the bookings that followed went 1.4 s early.)
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { memoryStore } from '../../src/stores/memory.js';
import { fakeFetch, runUntilSettled } from './fake-server.js';

const URL_A = 'http://127.0.0.1:9/a';

/**
 * One unconfigured client on a memory store: it learns 100/s, books 20 calls, then the server
 * states 10/s; at 150 ms the last of the 20 (due at 185 ms) is aborted or not, and at 155 ms 3
 * more calls are made. Returns when the first of those 3 was sent.
 */
async function firstAfterRelearn(abortOne: boolean): Promise<number> {
  const clock = new ManualClock();
  let quota = 100;
  const server = fakeFetch(
    clock,
    () => ({
      status: 200,
      headers: { 'ratelimit-policy': `"p";q=${quota};w=1`, ratelimit: `"p";r=${quota - 1};t=1` },
    }),
    5,
  );
  const fetch = createFetch({ fetch: server.fetch, clock, store: memoryStore({ clock }), random: () => 0 });
  // The first answer (at 5 ms) states 100/s: the fleet books at 100/s from then on.
  await runUntilSettled(clock, [fetch(URL_A)], 5);
  const controller = new AbortController();
  const booked = Array.from({ length: 20 }, (_, i) =>
    fetch(URL_A, i === 19 ? { signal: controller.signal } : {}),
  );
  booked[19]!.catch(() => {});
  // From the next answer on (at 10 ms), the server states 10/s: the fleet re-books at 10/s.
  quota = 10;
  await clock.advance(145);
  if (abortOne) controller.abort();
  // The give-back lands before the next bookings (nothing else is booked from 5 ms to 155 ms).
  await clock.advance(5);
  const after = Array.from({ length: 3 }, () => fetch(URL_A));
  const results = await runUntilSettled(clock, [...booked, ...after], 5);
  expect(results.slice(20).every((r) => r.status === 'fulfilled')).toBe(true);
  // The 3 calls made last are the last 3 sent.
  return server.seen.at(-3)!.at;
}

describe('a learned fleet: a call booked at the old figures and given back after they moved', () => {
  it('gives back one unit: the next bookings come one slot earlier, not many', async () => {
    const kept = await firstAfterRelearn(false);
    const givenBack = await firstAfterRelearn(true);
    // One unit back at 10/s is one 100 ms slot earlier (kept: 1905 ms); 200 ms of slack.
    expect(givenBack).toBeGreaterThanOrEqual(kept - 200);
  });
});
