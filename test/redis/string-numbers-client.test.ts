/**
 * The Redis store with an ioredis client made with `stringNumbers: true` (an ioredis option for
 * integers beyond 2⁵³, which returns every integer reply as a string). The gate reads such replies
 * (`Number(value)`); takes and reservations must too: the script has run and spent its units,
 * yet every caller is told the store failed (a fail-open limiter then limits nothing).
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisStore } from '../../src/redis/index.js';
import type { StoreLimit } from '../../src/stores/store.js';
import { redisUrl, uniquePrefix } from '../support/redis.js';

let client: Redis;

beforeAll(async () => {
  client = new Redis(redisUrl(), { enableOfflineQueue: false, lazyConnect: true, stringNumbers: true });
  await client.connect();
});
afterAll(() => client.disconnect());

const limit: StoreLimit = { algorithm: 'token-bucket', limit: 3, windowMs: 60_000 };

describe('a client whose integer replies are strings (ioredis stringNumbers)', () => {
  it('take answers a decision', async () => {
    const store = redisStore({ client, prefix: uniquePrefix('string-numbers') });
    const outcome = await store.take('k', limit, 1).then(
      (decision) => decision,
      (error: unknown) => ({ error: (error as { code?: string }).code }),
    );
    expect(outcome).toMatchObject({ allowed: true, limit: 3, remaining: 2, retryAfterMs: 0 });
  });

  it('reserve answers a wait', async () => {
    const store = redisStore({ client, prefix: uniquePrefix('string-numbers-reserve') });
    const outcome = await store.reserve('k', limit, 1).catch((error: unknown) => ({
      error: (error as { code?: string }).code,
    }));
    expect(outcome).toEqual({ waitMs: 0 });
  });
});
