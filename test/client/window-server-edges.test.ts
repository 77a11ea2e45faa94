/**
 * An unconfigured client against a fixed window server scripted on the manual clock: a call that
 * costs more than the window's limit, and a window whose stated limit shrinks.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { createFetch } from '../../src/index.js';
import { fakeFetch } from './fake-server.js';

/**
 * A fixed window of 1 s whose limit is `limitAt(t)`, in `X-RateLimit-*` (the reset in delta
 * seconds) or IETF (`q` per `w`); a call to `/batch` costs 8. Records every refusal's time.
 */
function fixedWindow(clock: ManualClock, limitAt: (t: number) => number, dialect: 'x-ratelimit' | 'ietf') {
  let windowStart = 0;
  let used = 0;
  const refusedAt: number[] = [];
  const admittedAt: number[] = [];
  const { fetch } = fakeFetch(
    clock,
    ({ at, url }) => {
      const limit = limitAt(at);
      if (at >= windowStart + 1000) {
        windowStart = Math.floor(at / 1000) * 1000;
        used = 0;
      }
      const cost = url.endsWith('/batch') ? 8 : 1;
      const ok = used + cost <= limit;
      if (ok) {
        used += cost;
        admittedAt.push(at);
      } else refusedAt.push(at);
      const remaining = String(Math.max(0, limit - used));
      const t = Math.ceil((windowStart + 1000 - at) / 1000);
      const headers: Record<string, string> =
        dialect === 'ietf'
          ? { 'RateLimit-Policy': `"default";q=${limit};w=1`, RateLimit: `"default";r=${remaining};t=${t}` }
          : {
              'X-RateLimit-Limit': String(limit),
              'X-RateLimit-Remaining': remaining,
              'X-RateLimit-Reset': String(t),
            };
      if (!ok) headers['Retry-After'] = String(t);
      return { status: ok ? 200 : 429, headers };
    },
    1,
  );
  return { fetch, refusedAt, admittedAt };
}

describe('a fixed window server, edges', () => {
  it('a call that costs more than the window holds settles (nothing waits forever with nothing in flight)', async () => {
    const clock = new ManualClock(0, Date.UTC(2026, 0, 1));
    const server = fixedWindow(clock, () => 5, 'ietf');
    const fetch = createFetch({
      fetch: server.fetch,
      clock,
      random: () => 0,
      cost: (req) => (String(req.url).endsWith('/batch') ? 8 : 1),
    });
    // Twelve calls of one unit: the window model learns the window of 5 and governs.
    const warmUp = Array.from({ length: 12 }, () => fetch('http://api.test/items'));
    for (let ms = 0; ms < 5000; ms += 10) await clock.advance(10);
    await Promise.all(warmUp);
    expect(fetch.stats()[0]).toMatchObject({ inFlight: 0, learned: { source: 'window', burst: 5 } });
    // One call of 8 units: more than the window's limit. Sent (and refused) or failed: it must settle.
    let settled = false;
    const batch = fetch('http://api.test/batch').then(
      () => {
        settled = true;
      },
      () => {
        settled = true;
      },
    );
    for (let ms = 0; ms < 120_000 && !settled; ms += 10) await clock.advance(10);
    expect({ settled, stats: fetch.stats()[0] }).toMatchObject({ settled: true });
    await batch;
  });

  it('a window whose stated limit shrinks (10 → 5 per second, X-RateLimit-*) is followed at its new size', async () => {
    const clock = new ManualClock(0, Date.UTC(2026, 0, 1));
    const server = fixedWindow(clock, (t) => (t < 5000 ? 10 : 5), 'x-ratelimit');
    const fetch = createFetch({ fetch: server.fetch, clock, random: () => 0 });
    // One caller, one call at a time, for 20 s.
    let stop = false;
    const caller = (async () => {
      while (!stop) await fetch('http://api.test/items');
    })();
    for (let ms = 0; ms < 20_000; ms++) await clock.advance(1);
    stop = true;
    for (let ms = 0; ms < 2000; ms++) await clock.advance(1);
    await caller;
    // The window refused what was sent into its first second at the new size (the client could not
    // know); from then on each window of 5 is spent, and none refused. A client that ignores the
    // headers and waits out each Retry-After admits 5 a second too: 40 over [12 s, 20 s).
    const admitted = server.admittedAt.filter((t) => t >= 12_000 && t < 20_000).length;
    expect({
      refusedLater: server.refusedAt.filter((t) => t >= 6000),
      admitted,
      learned: fetch.stats()[0]?.learned,
      admittedAtLeast35: admitted >= 35,
    }).toMatchObject({ refusedLater: [], admittedAtLeast35: true });
  });
});
