/**
 * A 429 closes the key's gate for everyone: after `Retry-After: 2`, the server sees no request on
 * that key for 2 s while 50 calls wait behind it. Real HTTP on loopback; client and server share a
 * manual clock so that "2 s" is exact and nothing sleeps.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { startServer } from '../../src/server/index.js';
import { runUntilSettled } from '../client/fake-server.js';

describe('gate', () => {
  it('holds every call on the key for the whole Retry-After', async () => {
    const clock = new ManualClock(0, Date.UTC(2026, 10, 30));
    const arrivals: number[] = [];
    // A fixed window of 51 per 2 s, aligned on the shared clock: the 52nd call in the first window
    // is refused with Retry-After: 2.
    const server = await startServer({
      algorithm: 'fixed-window',
      burst: 51,
      windowMs: 2000,
      headers: 'none',
      clock,
      limiter: { onDecision: () => arrivals.push(clock.now()) },
    });
    try {
      const fetch = createFetch({ clock, random: () => 0 });
      const first = await runUntilSettled(
        clock,
        Array.from({ length: 51 }, () => fetch(`${server.url}/a`)),
        0,
      );
      expect(first.every((r) => r.status === 'fulfilled' && r.value.status === 200)).toBe(true);

      const limited: number[] = [];
      fetch.onRateLimited((e) => limited.push(e.retryAfterMs ?? -1));
      const refused = fetch(`${server.url}/b`);
      while (limited.length === 0) await clock.advance(0);
      expect(limited).toEqual([2000]);
      const refusedAt = clock.now();
      const queued = Array.from({ length: 50 }, () => fetch(`${server.url}/c`));
      const seenBefore = arrivals.length;

      await clock.advance(1999);
      expect(arrivals.length).toBe(seenBefore);

      const results = await runUntilSettled(clock, [refused, ...queued], 1);
      expect(results.every((r) => r.status === 'fulfilled' && r.value.status === 200)).toBe(true);
      const after = arrivals.slice(seenBefore);
      expect(after).toHaveLength(51);
      expect(Math.min(...after) - refusedAt).toBeGreaterThanOrEqual(2000);
    } finally {
      await server.close();
    }
  });
});
