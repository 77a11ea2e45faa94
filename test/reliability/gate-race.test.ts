/**
 * 64 calls waiting on one key when its gate opens: at most the burst go at that instant, the rest
 * follow at the configured rate. On the manual clock, so "the instant" is exact.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { fakeFetch, runUntilSettled } from '../client/fake-server.js';

describe('the instant a gate opens', () => {
  it.each([
    ['configured', { rate: 10, burst: 5 }, 5],
    ['unconfigured', {}, 4],
  ])('%s: 64 waiting calls send at most the burst at once', async (_, options, burst) => {
    const clock = new ManualClock();
    let refusedAt: number | undefined;
    const server = fakeFetch(clock, (seen, i) => {
      if (i === 0) {
        refusedAt = seen.at;
        return { status: 429, headers: { 'retry-after': '2' } };
      }
      return { status: 200 };
    });
    const fetch = createFetch({ fetch: server.fetch, clock, ...options });
    const first = fetch('http://127.0.0.1:9/first');
    await clock.advance(1);
    const calls = Array.from({ length: 64 }, (_, i) => fetch(`http://127.0.0.1:9/${i}`));
    const results = await runUntilSettled(clock, [first, ...calls], 1, 60_000);
    expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
    const after = server.seen.slice(1);
    const opensAt = Math.min(...after.map((s) => s.at));
    expect(opensAt).toBeGreaterThanOrEqual(refusedAt! + 2_000);
    const atOnce = after.filter((s) => s.at === opensAt).length;
    expect(atOnce).toBeGreaterThanOrEqual(1);
    expect(atOnce).toBeLessThanOrEqual(burst);
  });
});
