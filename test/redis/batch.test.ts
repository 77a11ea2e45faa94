import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisScriptClient, redisStore } from '../../src/redis/index.js';
import type { AlgorithmName, StoreLimit } from '../../src/stores/store.js';
import { redisUrl, uniquePrefix } from '../support/redis.js';

let client: Redis;

beforeAll(async () => {
  client = new Redis(redisUrl(), { enableOfflineQueue: false, lazyConnect: true });
  await client.connect();
});
afterAll(() => client.disconnect());

/** The real client, counting the script commands sent (and, optionally, claiming to be a Cluster). */
function counting(isCluster = false) {
  const sent: string[] = [];
  const wrapped: RedisScriptClient & { isCluster: boolean } = {
    isCluster,
    evalsha: (sha, numkeys, ...args) => {
      sent.push(`evalsha ${numkeys}`);
      return client.evalsha(sha, numkeys, ...args);
    },
    eval: (script, numkeys, ...args) => {
      sent.push(`eval ${numkeys}`);
      return client.eval(script, numkeys, ...args);
    },
  };
  return { wrapped, sent };
}

const algorithms: AlgorithmName[] = [
  'token-bucket',
  'gcra',
  'fixed-window',
  'sliding-window-counter',
  'sliding-log',
];

describe('redisStore batching', () => {
  it.each(algorithms)(
    '%s: the takes of one turn share one round trip and decide as one by one',
    async (algorithm) => {
      const { wrapped, sent } = counting();
      const prefix = uniquePrefix(`batch-${algorithm}`);
      const store = redisStore({ client: wrapped, prefix });
      const limit: StoreLimit = { algorithm, limit: 5, windowMs: 60_000 };
      await store.take('warm', limit, 1); // loads the single script
      sent.length = 0;
      const keys = ['a', 'b', 'a', 'a', 'b', 'a', 'a', 'a'];
      const decisions = await Promise.all(keys.map((key) => store.take(key, limit, 1)));
      expect(sent.filter((c) => c.startsWith('evalsha')).length).toBe(1);
      // In call order: `a` is taken 6 times (5 admitted), `b` twice.
      expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, true, true, true, true, false]);
      expect(decisions.map((d) => d.remaining)).toEqual([4, 4, 3, 2, 3, 1, 0, 0]);
      expect(decisions[7]!.retryAfterMs).toBeGreaterThan(0);
      // A batch is decided exactly like the same calls one at a time.
      const single = redisStore({ client, prefix: `${prefix}-single` });
      const oneByOne = [];
      for (const key of keys) oneByOne.push(await single.take(key, limit, 1));
      expect(decisions.map(({ allowed, remaining }) => ({ allowed, remaining }))).toEqual(
        oneByOne.map(({ allowed, remaining }) => ({ allowed, remaining })),
      );
    },
  );

  it('on a Cluster batches only calls of the same key (one hash slot)', async () => {
    const { wrapped, sent } = counting(true);
    const store = redisStore({ client: wrapped, prefix: uniquePrefix('batch-cluster') });
    const limit: StoreLimit = { algorithm: 'token-bucket', limit: 100, windowMs: 1000 };
    await store.take('warm', limit, 1);
    sent.length = 0;
    await Promise.all(['a', 'b', 'a', 'c', 'a', 'b'].map((key) => store.take(key, limit, 1)));
    expect(sent.sort()).toEqual(['evalsha 1', 'evalsha 2', 'evalsha 3']);
  });

  it('settles every call of a batch when Redis does not answer, each with its own key and the option to raise', async () => {
    const stalled: RedisScriptClient = {
      evalsha: () => new Promise(() => {}),
      eval: () => new Promise(() => {}),
    };
    const store = redisStore({ client: stalled, commandTimeoutMs: 20 });
    const limit: StoreLimit = { algorithm: 'token-bucket', limit: 100, windowMs: 1000 };
    const results = await Promise.allSettled(['x', 'y', 'z'].map((key) => store.take(key, limit, 1)));
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    const errors = results.map((r) => (r as PromiseRejectedResult).reason);
    expect(errors.map((e) => [e.code, e.key])).toEqual([
      ['HEADWAY_STORE_TIMEOUT', 'x'],
      ['HEADWAY_STORE_TIMEOUT', 'y'],
      ['HEADWAY_STORE_TIMEOUT', 'z'],
    ]);
    expect(errors[0].message).toContain('Raise `commandTimeoutMs`');
  });
});
