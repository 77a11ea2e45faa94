/**
 * README "Header dialects": "**Several limiters on one request** (a quota per minute and one per
 * day, each a `rateLimit` with its own policy `name`)"; README "Options": a memory store's
 * "limiters of different algorithms that share one memory store need keys of their own" (so
 * limiters of one algorithm may share it), and "More than one process": one quota for a fleet
 * needs one shared store. So a per-minute and a per-day limiter of the same algorithm, given one
 * store, should each enforce their own quota.
 *
 * The store key of a policy not named `default` is `<name>/<key>`. (It was the request's key
 * alone, and the day limiter spent the minute limiter's units: with 2 per minute, the second
 * request of the minute was refused, and the day limiter reported 0 of 1,000 left.)
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { rateLimit } from '../../src/server/rate-limit.js';
import { memoryStore } from '../../src/stores/memory.js';

const req = () => new Request('http://api.test/items');

describe('a per-minute and a per-day limiter sharing one store', () => {
  it('each keeps its own quota: 2 requests in a minute pass both, the day has 998 left', async () => {
    const clock = new ManualClock();
    const store = memoryStore({ clock });
    const key = () => 'client';
    const minute = rateLimit({ clock, key, store, policy: { name: 'minute', limit: 2, windowMs: 60_000 } });
    const day = rateLimit({ clock, key, store, policy: { name: 'day', limit: 1000, windowMs: 86_400_000 } });

    const statuses: number[] = [];
    let dayRemaining: number | undefined;
    for (let i = 0; i < 2; i++) {
      const first = await minute.check(req());
      const second = await day.check(req());
      statuses.push(first.status, second.status);
      dayRemaining = second.decision?.remaining;
      await clock.advance(1000);
    }
    expect({ statuses, dayRemaining }).toEqual({ statuses: [200, 200, 200, 200], dayRemaining: 998 });
  });
});
