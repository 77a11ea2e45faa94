/**
 * Redis replies in 64-bit integers: a `remaining` of 2^63 or more would wrap to a negative number.
 * The Redis store refuses a limit beyond `Number.MAX_SAFE_INTEGER` with `InvalidOptionError` (units
 * beyond 2^53 cannot be counted one by one anyway), and decides as the memory algorithm up to it.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { algorithms } from '../../src/core/algorithms/index.js';
import { algorithmNames } from '../../src/core/algorithms/names.js';
import { InvalidOptionError } from '../../src/errors.js';
import { takeOnRedis } from '../../src/redis/algorithm-call.js';
import { Batcher } from '../../src/redis/batcher.js';
import { redisUrl, uniquePrefix } from '../support/redis.js';

let client: Redis;

beforeAll(async () => {
  client = new Redis(redisUrl(), { enableOfflineQueue: false, lazyConnect: true });
  await client.connect();
});
afterAll(() => client.disconnect());

const targetFor = (algorithm: string) => ({
  client,
  prefix: uniquePrefix(`huge-${algorithm}`),
  commandTimeoutMs: 1000,
  batcher: new Batcher(client, 1000),
});

describe('a huge limit on Redis', () => {
  it.each(algorithmNames)('%s: a limit beyond 2^53 is refused with InvalidOptionError', async (algorithm) => {
    const limit = { algorithm, limit: 1e19, windowMs: 60_000 };
    await expect(takeOnRedis(targetFor(algorithm), 'k', limit, 1)).rejects.toBeInstanceOf(InvalidOptionError);
  });

  it.each(algorithmNames)('%s: at 2^53 − 1, remaining is the memory algorithm’s', async (algorithm) => {
    const limit = { algorithm, limit: Number.MAX_SAFE_INTEGER, windowMs: 60_000 };
    const { decision, now } = await takeOnRedis(targetFor(algorithm), 'k', limit, 1);
    const memory = algorithms[algorithm].take(undefined, limit, now, 1).decision;
    expect(decision.remaining).toBe(memory.remaining);
  });
});
