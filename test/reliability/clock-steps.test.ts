/**
 * A clock that steps back an hour or forward a day (a VM resumed, NTP corrected) never removes
 * units, never makes a wait longer than the window, never yields NaN, for every algorithm of the
 * memory store, and never stalls the client. Time is passed in.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { algorithmNames } from '../../src/core/algorithms/names.js';
import type { Clock } from '../../src/core/clock.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { memoryStore } from '../../src/stores/memory.js';
import type { Decision, StoreLimit } from '../../src/stores/store.js';
import { fakeFetch, runUntilSettled } from '../client/fake-server.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A clock whose monotonic time can be set anywhere, even backwards. */
function steppableClock(start: number): Clock & { set(ms: number): void } {
  let now = start;
  return {
    now: () => now,
    wallNow: () => now,
    sleep: () => Promise.resolve(),
    set(ms) {
      now = ms;
    },
  };
}

function expectSane(decision: Decision, limit: StoreLimit) {
  for (const value of [decision.remaining, decision.retryAfterMs, decision.resetMs ?? 0]) {
    expect(Number.isNaN(value)).toBe(false);
  }
  expect(decision.remaining).toBeGreaterThanOrEqual(0);
  expect(decision.retryAfterMs).toBeGreaterThanOrEqual(0);
  // A sliding window counter may wait out the window and then one unit's share of the next.
  const longest = limit.windowMs * (limit.algorithm === 'sliding-window-counter' ? 1 + 1 / limit.limit : 1);
  expect(decision.retryAfterMs).toBeLessThanOrEqual(longest);
}

describe.each(algorithmNames)('%s: the clock steps', (algorithm) => {
  const limit: StoreLimit = { algorithm, limit: 10, windowMs: 10_000 };
  const start = 100 * DAY;

  it('back one hour: no unit is removed, and waits stay within the window', async () => {
    const clock = steppableClock(start);
    const store = memoryStore({ clock });
    for (let i = 0; i < 3; i++) await store.take('k', limit, 1);
    clock.set(start - HOUR);
    const after = await store.take('k', limit, 1);
    expectSane(after, limit);
    expect(after.allowed).toBe(true);
    expect(after.remaining).toBeGreaterThanOrEqual(10 - 4);
    let refused: Decision | undefined;
    for (let i = 0; i < 20 && !refused; i++) {
      const decision = await store.take('k', limit, 1);
      expectSane(decision, limit);
      if (!decision.allowed) refused = decision;
    }
    expect(refused).toBeDefined();
  });

  it('forward one day: the key is fresh again', async () => {
    const clock = steppableClock(start);
    const store = memoryStore({ clock });
    for (let i = 0; i < 10; i++) await store.take('k', limit, 1);
    clock.set(start + DAY);
    const decision = await store.take('k', limit, 1);
    expectSane(decision, limit);
    expect(decision).toMatchObject({ allowed: true, remaining: 9 });
  });
});

describe('client: the wall clock steps while calls wait', () => {
  it.each([
    ['back one hour', -HOUR],
    ['forward one day', DAY],
  ])('%s: every call settles within the server-stated waits', async (_, step) => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, (_seen, i): { status: number; headers: Record<string, string> } =>
      i % 5 === 4
        ? { status: 429, headers: { 'retry-after': new Date(clock.wallNow() + 2_000).toUTCString() } }
        : {
            status: 200,
            headers: {
              'x-ratelimit-limit': '5',
              'x-ratelimit-remaining': String(4 - (i % 5)),
              'x-ratelimit-reset': String(Math.ceil(clock.wallNow() / 1000) + 1),
            },
          },
    );
    const fetch = createFetch({ fetch: server.fetch, clock, maxRetryAfterMs: 60_000 });
    const calls = Array.from({ length: 20 }, (_, i) => fetch(`http://127.0.0.1:9/${i}`));
    await clock.advance(500);
    clock.shiftWall(step);
    const started = clock.now();
    const results = await runUntilSettled(clock, calls, 100, 600_000);
    for (const r of results)
      if (r.status === 'rejected') expect(r.reason).toMatchObject({ name: expect.stringMatching(/Error$/) });
    expect(results.filter((r) => r.status === 'fulfilled').length).toBeGreaterThanOrEqual(15);
    expect(clock.now() - started).toBeLessThan(120_000);
  });
});
