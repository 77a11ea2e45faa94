/**
 * A window of 10¹⁸ ms is a policy the limiter accepts (`windowMs`: a positive finite number; the
 * memory store decides it, and `test/core/vast-window.test.ts` runs a 10²⁰ ms window), and the
 * Redis store checks only that the limit stays within 2⁵³. But every script sets its key's expiry
 * with `SET … PX ttl` / `PEXPIRE key ttl` from a Lua number, which Redis formats with `%.17g`: from
 * 10¹⁷ ms on that is `1e+17`, not an integer, and Redis fails the command ("value is not an integer
 * or out of range"). So every take on such a key rejects with a `StoreError`, as if Redis were
 * down: `rateLimit` then fails open (the limit is never enforced) or answers every request 503.
 * The memory store decides the same calls. Expected: the Redis store decides them too — or, as for
 * a limit past 2⁵³, refuses the policy up front with an `InvalidOptionError` naming `windowMs`.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { algorithmNames } from '../../src/core/algorithms/names.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { InvalidOptionError } from '../../src/errors.js';
import { redisStore } from '../../src/redis/index.js';
import { memoryStore } from '../../src/stores/memory.js';
import type { Decision, StoreLimit } from '../../src/stores/store.js';
import { redisUrl, uniquePrefix } from '../support/redis.js';

let client: Redis;

beforeAll(async () => {
  client = new Redis(redisUrl(), { enableOfflineQueue: false, lazyConnect: true });
  await client.connect();
});
afterAll(() => client.disconnect());

describe('a window of 10¹⁸ ms on Redis', () => {
  it.each(algorithmNames)(
    '%s: the first take is decided as in memory (or the policy refused as invalid)',
    async (algorithm) => {
      const limit: StoreLimit = { algorithm, limit: 1, windowMs: 1e18 };
      const memory = await memoryStore({ clock: new ManualClock(1_000) }).take('k', limit, 1);
      expect(memory.allowed).toBe(true);

      const store = redisStore({ client, prefix: uniquePrefix(`vast-${algorithm}`) });
      const outcome: Decision | unknown = await store.take('k', limit, 1).then(
        (decision) => decision,
        (error: unknown) => error,
      );
      if (outcome instanceof Error) {
        expect(outcome).toBeInstanceOf(InvalidOptionError);
      } else {
        expect((outcome as Decision).allowed).toBe(true);
      }
    },
  );
});
