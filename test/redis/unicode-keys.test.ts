/**
 * Two different limit keys never share state on Redis, as in the memory store: a key holding a
 * lone UTF-16 surrogate (which Redis would receive as U+FFFD, like every other such key) is tagged
 * by the hash of its code units.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisStore } from '../../src/redis/index.js';
import { memoryStore } from '../../src/stores/memory.js';
import type { StoreLimit } from '../../src/stores/store.js';
import { redisUrl, uniquePrefix } from '../support/redis.js';

let client: Redis;

beforeAll(async () => {
  client = new Redis(redisUrl(), { enableOfflineQueue: false, lazyConnect: true });
  await client.connect();
});
afterAll(() => client.disconnect());

describe('Redis keys with unicode', () => {
  it('keys that differ only in a lone surrogate never share state', async () => {
    const limit: StoreLimit = { algorithm: 'token-bucket', limit: 1, windowMs: 60_000 };
    const keys = ['tenant-\uFFFD', 'tenant-\uD800', 'tenant-\uDC00'];
    const memory = memoryStore();
    const redis = redisStore({ client, prefix: uniquePrefix('surrogate') });
    const inMemory = [];
    for (const key of keys) inMemory.push((await memory.take(key, limit, 1)).allowed);
    const onRedis = [];
    for (const key of keys) onRedis.push((await redis.take(key, limit, 1)).allowed);
    expect(inMemory).toEqual([true, true, true]);
    expect(onRedis).toEqual(inMemory);
  });

  it('a gate held for one key does not close another key’s gate', async () => {
    const redis = redisStore({ client, prefix: uniquePrefix('surrogate-gate') });
    await redis.holdGate('\uD83D', 60_000); // a lone high surrogate
    expect(await redis.gateWait('\uDE00')).toBe(0); // a lone low surrogate: another key
  });
});
