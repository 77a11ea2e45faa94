/**
 * The Redis store's keys: two limit keys never share state, the sliding window counter's Lua says
 * what the memory algorithm says, and a key vanishes only once it equals a missing key.
 */
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { algorithms } from '../../src/core/algorithms/index.js';
import { takeOnRedis } from '../../src/redis/algorithm-call.js';
import { Batcher } from '../../src/redis/batcher.js';
import { redisStore } from '../../src/redis/index.js';
import { readState, redisUrl, uniquePrefix } from '../support/redis.js';

let client: Redis;

beforeAll(async () => {
  client = new Redis(redisUrl(), { enableOfflineQueue: false, lazyConnect: true });
  await client.connect();
});
afterAll(() => client.disconnect());

describe('Redis keys', () => {
  it('two different limit keys never share state (a key that spells another key’s hashed tag)', async () => {
    const prefix = uniquePrefix('collide');
    const store = redisStore({ client, prefix });
    const limit = { algorithm: 'token-bucket', limit: 1, windowMs: 60_000 } as const;
    // A key with a brace is tagged by its SHA-256 as `{#…}`; a plain key equal to that text is
    // written as its own tag, `{#…}`, the very same Redis key.
    const victim = 'tenant{42}';
    const spoof = `#${createHash('sha256').update(victim).digest('base64url')}`;
    expect((await store.take(victim, limit, 1)).allowed).toBe(true);
    expect((await store.take(spoof, limit, 1)).allowed).toBe(true);
  });
});

describe('the Lua mirrors the in-memory algorithm', () => {
  it('sliding window counter: resetMs is the memory algorithm’s at the same instant', async () => {
    const batcher = new Batcher(client, 1000);
    const target = { client, prefix: uniquePrefix('swc-reset'), commandTimeoutMs: 1000, batcher };
    const limit = { algorithm: 'sliding-window-counter', limit: 5, windowMs: 60_000 } as const;
    // One take on a fresh key, decided by Redis at `now`; the memory algorithm at the same `now`.
    const { decision, now } = await takeOnRedis(target, 'k', limit, 1);
    const memory = algorithms['sliding-window-counter'].take(undefined, limit, now, 1).decision;
    expect(decision.allowed).toBe(memory.allowed);
    expect(decision.remaining).toBe(memory.remaining);
    expect(decision.retryAfterMs).toBe(memory.retryAfterMs);
    expect(decision.resetMs).toBe(Math.ceil(memory.resetMs - 1e-9));
  });
});

describe('idle keys vanish only once they equal a fresh key', () => {
  it('a bucket key does not expire before the bucket is full again (token bucket, gcra)', async () => {
    const prefix = uniquePrefix('early-expiry');
    const store = redisStore({ client, prefix });
    for (let i = 0; i < 5; i++) {
      for (const [algorithm, suffix] of [
        ['token-bucket', 'tb'],
        ['gcra', 'gcra'],
      ] as const) {
        const limit = { algorithm, limit: 5, windowMs: 60_000 };
        await store.take(`k${i}`, limit, 1);
        const name = `${prefix}:{k${i}}:${suffix}`;
        const [first, ts] = (await readState(client, name)) as [number, number];
        // When the stored state equals a fresh key: the bucket full again / the TAT reached.
        const fullAt =
          algorithm === 'gcra' ? first : ts + ((limit.limit - first) * limit.windowMs) / limit.limit;
        const expiresAt = Number(await client.call('PEXPIRETIME', name));
        // Redis counts PX from its whole-ms clock, the state from the script's µs TIME: without a
        // ms of slack a key expired up to 1 ms early, and in that gap a take of the whole burst was
        // admitted that the algorithm (and the memory store) refuses.
        expect(expiresAt, `${algorithm} #${i}`).toBeGreaterThanOrEqual(fullAt);
      }
    }
  });
});
