/**
 * README: "**Without a `rate`, the fleet learns together.** Give the workers the store and nothing
 * else, and what one of them learns from the server is shared through it"; How Headway reads a
 * server: a window the old drafts list beside the binding one's counters "is followed from the
 * first answer that lists it".
 *
 * Two workers sharing a memory store (`expectedWorkers: 2`, no rate) against one key limited to
 * 10/s and 300/min, stated in draft-6 (`RateLimit-Limit: 10, 10;w=1, 300;w=60` with the binding
 * window's counters). 600 calls, 4 callers per worker, manual clock: done at 114.6 s with
 * 84a7804, 90.1 s before it (2a9b875), 93.4 s for workers that read no headers.
 *
 * Found on 2026-12-06 (session 26, a review of 84a7804, the second attempt at following a window
 * from its listing); that attempt was taken back the same day, and this test keeps its regression
 * out: it passes on the code without it. The figures above are that attempt's, against the code
 * before it.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { memoryStore } from '../../src/stores/memory.js';
import { type ListedServerOptions, listedWindowServer } from './listed-window-server.js';

async function fleet(mode: ListedServerOptions['mode'], n: number) {
  const start = 10_000_000;
  const clock = new ManualClock(start, Date.UTC(2026, 0, 1) + start);
  const server = listedWindowServer(clock, {
    mode,
    phases: [
      {
        fromMs: 0,
        policies: [
          { name: 'sec', algorithm: 'fixed-window', policy: { limit: 10, windowMs: 1000 } },
          { name: 'min', algorithm: 'fixed-window', policy: { limit: 300, windowMs: 60_000 } },
        ],
      },
    ],
  });
  const store = memoryStore({ clock });
  const workers = [0, 1].map(() =>
    createFetch({ fetch: server.fetch, clock, store, expectedWorkers: 2, random: () => 0.5 }),
  );
  let next = 0;
  const caller = async (k: number) => {
    const fetch = workers[k % 2]!;
    while (next < n) {
      next++;
      await fetch('http://api.test/items');
    }
  };
  let done = false;
  const all = Promise.all(Array.from({ length: 8 }, (_, k) => caller(k))).then(() => {
    done = true;
  });
  for (let ms = 0; !done && ms < 600_000; ms += 10) await clock.advance(10);
  await all;
  return { ...server, last: Math.max(0, ...server.admittedAt) };
}

describe('a fleet of two workers sharing a store, 10/s and 300/min', () => {
  it('workers that read no headers: 600 calls done by 94 s (the baseline)', async () => {
    const r = await fleet('none', 600);
    expect(r.admittedAt).toHaveLength(600);
    expect(r.last).toBeLessThan(94_000);
  }, 60_000);

  it('draft-6, the binding counters only: 600 calls done by 94 s', async () => {
    const r = await fleet('draft-6', 600);
    expect(r.admittedAt).toHaveLength(600);
    expect(r.last).toBeLessThan(94_000);
  }, 60_000);
});
