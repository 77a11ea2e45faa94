/**
 * Redis's clock steps back an hour (NTP on the Redis host). The Redis scripts read every `TIME`
 * below the key's last write as that last write (`monotonic(now, ts)` in the prelude) until
 * Redis's clock catches up: no unit is removed, and none refills meanwhile (README, Limits). What
 * a refusal says must then be the true wait, the held hour included — not one unit's interval,
 * which a caller would wait out only to be refused again, and again — and the key must not expire
 * before it (a key that expires comes back full, sooner than the wait it named).
 *
 * The step is simulated as the existing step-back tests do (`test/redis/redis-store.test.ts`): the
 * key's state rewritten as if written an hour ahead of Redis's clock now.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisStore } from '../../src/redis/index.js';
import type { StoreLimit } from '../../src/stores/store.js';
import { readState, redisTimeMs, redisUrl, uniquePrefix, writeState } from '../support/redis.js';

const HOUR = 3_600_000;

let client: Redis;
beforeAll(async () => {
  client = new Redis(redisUrl(), { enableOfflineQueue: false, lazyConnect: true });
  await client.connect();
});
afterAll(() => client.disconnect());

/** One unit back every 200 ms, a burst of 10 (full again 2 s after it is spent). */
const limits: StoreLimit[] = [
  { algorithm: 'token-bucket', limit: 10, windowMs: 2000 },
  { algorithm: 'gcra', limit: 10, windowMs: 2000 },
];
/** Each algorithm's key, and its state as written an hour ahead of the clock (times moved, counts kept). */
const stepped: Record<string, { suffix: string; ahead: (state: number[]) => number[] }> = {
  'token-bucket': { suffix: 'tb', ahead: ([tokens, ts]) => [tokens!, ts! + HOUR] },
  gcra: { suffix: 'gcra', ahead: ([tat, ts]) => [tat! + HOUR, ts! + HOUR] },
};
/** One unit's interval: the wait a refusal names once the clock has caught up. */
const UNIT_MS = 200;

describe('a Retry-After given after Redis’s clock stepped back one hour', () => {
  it.each(limits)(
    '$algorithm: the refusal names the true wait, the held hour included, and the key outlives it',
    async (limit) => {
      const prefix = uniquePrefix('stepback-retry');
      const store = redisStore({ client, prefix, commandTimeoutMs: 2000 });
      const before = await redisTimeMs(client);
      for (let i = 0; i < limit.limit; i++) expect((await store.take('k', limit, 1)).allowed).toBe(true);
      // The state as Redis wrote it just before its clock stepped back an hour.
      const { suffix, ahead } = stepped[limit.algorithm]!;
      const name = `${prefix}:{k}:${suffix}`;
      await writeState(client, name, ahead(await readState(client, name)));
      const refused = await store.take('k', limit, 1);
      // A reservation waits as long, and the key is kept at least until it is full again.
      const reserved = await store.reserve!('k', limit, 1);
      const ttl = await client.pttl(name);
      // The held hour is counted from the last write (at `before` or later) to each read (at `after`
      // or sooner): the bracket, on Redis's clock, replaces a fixed second of slack that a process
      // stalled a second between the takes and the reads used up.
      const sinceWrite = (await redisTimeMs(client)) - before;
      expect(refused.allowed).toBe(false);
      // The hour Redis's clock must make up, then one unit's interval (the time since the write less).
      expect(refused.retryAfterMs).toBeGreaterThanOrEqual(HOUR - sinceWrite - 1);
      expect(refused.retryAfterMs).toBeLessThanOrEqual(HOUR + UNIT_MS);
      expect(refused.resetMs).toBeGreaterThanOrEqual(refused.retryAfterMs);
      expect(reserved.waitMs).toBeGreaterThanOrEqual(HOUR - sinceWrite - 1);
      expect(ttl).toBeGreaterThanOrEqual(HOUR - sinceWrite - 1);
    },
  );
});
