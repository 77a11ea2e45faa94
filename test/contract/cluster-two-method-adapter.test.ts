/**
 * `RedisScriptClient` says "another client fits through a two-method adapter" (`evalsha`, `eval`),
 * and the README's Redis section says each script runs on one slot of a Redis Cluster. A cluster
 * client behind such an adapter (node-redis's `createCluster`, or any other) says it is one with
 * `isCluster: true`, which the interface declares: the store then batches only the calls of one
 * key. (Undeclared, it batched the calls of one turn across keys whose keys hash to different
 * slots, and Redis refused the whole batch with `CROSSSLOT`.)
 */
import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisScriptClient, redisStore } from '../../src/redis/index.js';
import type { StoreLimit } from '../../src/stores/store.js';
import { uniquePrefix } from '../support/redis.js';
import { type RedisCluster, startRedisCluster } from '../support/redis-cluster.js';

let cluster: RedisCluster;
let client: Cluster;

beforeAll(async () => {
  cluster = await startRedisCluster(3);
  client = new Cluster([...cluster.startupNodes], { enableOfflineQueue: false });
  client.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    client.once('ready', resolve);
    client.once('error', reject);
  });
}, 60_000);

afterAll(async () => {
  client?.disconnect();
  await cluster?.stop();
});

describe('a Redis Cluster client behind the documented two-method adapter', () => {
  it('decides takes on keys of different slots made in one turn', async () => {
    // The adapter `RedisScriptClient` describes: its two methods, and that it is a cluster.
    const adapter: RedisScriptClient = {
      isCluster: true,
      evalsha: (sha, numkeys, ...args) => client.evalsha(sha, numkeys, ...args),
      eval: (script, numkeys, ...args) => client.eval(script, numkeys, ...args),
    };
    const store = redisStore({ client: adapter, prefix: uniquePrefix('adapter'), commandTimeoutMs: 2_000 });
    const limit: StoreLimit = { algorithm: 'token-bucket', limit: 10, windowMs: 60_000 };
    // `a`, `b` and `c` hash to three different slots.
    const slots = await Promise.all(['a', 'b', 'c'].map((key) => client.cluster('KEYSLOT', `{${key}}`)));
    expect(new Set(slots).size).toBe(3);
    const results = await Promise.allSettled(['a', 'b', 'c'].map((key) => store.take(key, limit, 1)));
    expect(
      results.map((r) => (r.status === 'fulfilled' ? r.value.remaining : String(r.reason?.cause))),
    ).toEqual([9, 9, 9]);
  });
});
