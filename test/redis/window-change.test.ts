/**
 * The Redis store decides as the memory algorithms at the same instant, also when the limit of a
 * key changes between calls: both keep a window as its start time, so after a change of
 * `windowMs` they agree on whether the stored window is the current one.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { algorithms } from '../../src/core/algorithms/index.js';
import { takeOnRedis } from '../../src/redis/algorithm-call.js';
import { Batcher } from '../../src/redis/batcher.js';
import type { StoreLimit } from '../../src/stores/store.js';
import { redisUrl, uniquePrefix } from '../support/redis.js';

let client: Redis;

beforeAll(async () => {
  client = new Redis(redisUrl(), { enableOfflineQueue: false, lazyConnect: true });
  await client.connect();
});
afterAll(() => client.disconnect());

const HOUR = 3_600_000;

/** Smallest divisor ≥ 2 of n. */
function smallestDivisor(n: number): number {
  for (let d = 2; d * d <= n; d++) if (n % d === 0) return d;
  return n;
}

describe('a key whose windowMs changes decides on Redis as in memory', () => {
  it.each(['fixed-window', 'sliding-window-counter'] as const)(
    '%s: an m-hour window, then a one-hour window that starts at the same instant',
    async (algorithm) => {
      const batcher = new Batcher(client, 1000);
      const target = {
        client,
        prefix: uniquePrefix(`window-change-${algorithm}`),
        commandTimeoutMs: 1000,
        batcher,
      };
      // The current hour since the epoch is `hour`; a window of `m` hours (m divides `hour`)
      // started at the same instant as this hour's window: both windows start at hour · HOUR.
      const [seconds] = await client.time();
      const hour = Math.floor((Number(seconds) * 1000) / HOUR);
      const m = smallestDivisor(hour);
      const long: StoreLimit = { algorithm, limit: 1, windowMs: m * HOUR };
      const short: StoreLimit = { algorithm, limit: 1, windowMs: HOUR };

      const first = await takeOnRedis(target, 'k', long, 1);
      const memoryFirst = algorithms[algorithm].take(undefined, long, first.now, 1);
      expect(first.decision).toEqual(memoryFirst.decision);

      const second = await takeOnRedis(target, 'k', short, 1);
      const memorySecond = algorithms[algorithm].take(memoryFirst.state, short, second.now, 1);
      // Memory: the unit taken at the start of this hour counts in this hour's window (refused).
      // Redis: stored index `hour / m` is not this window's index `hour`, so the unit is forgotten.
      expect(second.decision).toEqual(memorySecond.decision);
    },
  );
});
