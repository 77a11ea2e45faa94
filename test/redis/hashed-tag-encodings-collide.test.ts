/**
 * Two different limit keys never share state on Redis. A hashed tag (`{#…}`) is the SHA-256 of a
 * well-formed key's UTF-8 bytes, or of an ill-formed key's (lone surrogate) UTF-16LE code units:
 * the two encodings share one namespace, so a key with a lone surrogate can be built whose
 * UTF-16LE bytes are another (hashed) key's UTF-8 bytes.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisStore } from '../../src/redis/index.js';
import { redisKey } from '../../src/redis/keys.js';
import type { StoreLimit } from '../../src/stores/store.js';
import { redisUrl, uniquePrefix } from '../support/redis.js';

let client: Redis;

beforeAll(async () => {
  client = new Redis(redisUrl(), { enableOfflineQueue: false, lazyConnect: true });
  await client.connect();
});
afterAll(() => client.disconnect());

// Well-formed, hashed because it starts with `#`: UTF-8 bytes 23 D8 80 41 ('#', U+0600, 'A').
const wellFormed = '#\u0600A';
// Ill-formed (a lone high surrogate U+D823, then U+4180), hashed by its UTF-16LE bytes: 23 D8 80 41.
const illFormed = '\uD823\u4180';

describe('hashed Redis tags of well-formed and ill-formed keys', () => {
  it('two different keys get two different Redis keys', () => {
    expect(wellFormed).not.toBe(illFormed);
    expect(redisKey('p', illFormed, 'tb')).not.toBe(redisKey('p', wellFormed, 'tb'));
  });

  it('a take on one key does not spend the other key’s quota (as in the memory store)', async () => {
    const store = redisStore({ client, prefix: uniquePrefix('tag-encodings') });
    const limit: StoreLimit = { algorithm: 'token-bucket', limit: 1, windowMs: 60_000 };
    expect((await store.take(wellFormed, limit, 1)).allowed).toBe(true);
    expect((await store.take(illFormed, limit, 1)).allowed).toBe(true);
  });

  it('a gate held for one key does not close the other’s', async () => {
    const store = redisStore({ client, prefix: uniquePrefix('tag-encodings-gate') });
    await store.holdGate(wellFormed, 60_000);
    expect(await store.gateWait(illFormed)).toBe(0);
  });
});
