/**
 * GitHub states one primary window per resource (`x-ratelimit-resource: core`, `search`, …), each a
 * quota of its own: a call counts in the window of its resource only. An exhausted `search` window
 * (30 a minute) must not hold calls to `core` (5,000 an hour, nearly all left) until it resets.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { fakeFetch, runUntilSettled } from './fake-server.js';

describe('GitHub: windows of different resources', () => {
  it('a core call goes at once while the search window is spent (its reset 50 s away)', async () => {
    const clock = new ManualClock(0, Date.UTC(2026, 10, 30));
    const resetAt = String(Math.floor(clock.wallNow() / 1000) + 50);
    const remaining = { search: 3, core: 4990 };
    const { fetch: transport, seen } = fakeFetch(
      clock,
      (s) => {
        const resource = new URL(s.url).pathname.startsWith('/search') ? 'search' : 'core';
        const limit = resource === 'search' ? 30 : 5000;
        const left = --remaining[resource];
        return {
          status: 200,
          headers: {
            'x-ratelimit-limit': String(limit),
            'x-ratelimit-remaining': String(left),
            'x-ratelimit-reset': resetAt,
            'x-ratelimit-used': String(limit - left),
            'x-ratelimit-resource': resource,
          },
        };
      },
      5,
    );
    const fetch = createFetch({ fetch: transport, clock });
    await runUntilSettled(clock, [fetch('https://api.github.com/repos/o/r')]);
    // Three searches spend the search window: 0 of 30 left until the reset.
    for (let i = 0; i < 3; i++)
      await runUntilSettled(clock, [fetch('https://api.github.com/search/issues?q=x')]);
    expect(remaining.search).toBe(0);
    const sentBefore = seen.length;
    const core = fetch('https://api.github.com/repos/o/r');
    for (let i = 0; i < 100; i++) await clock.advance(10); // one second
    expect(seen.length).toBe(sentBefore + 1);
    await runUntilSettled(clock, [core], 100);
  });
});
