/**
 * The Redis store on a real Redis Cluster (three masters, one replica each, started here on
 * loopback): the store contract passes through an ioredis `Cluster`; every Redis key of one limit
 * lives in one slot; many limits spread over all three masters; and a master killed mid-run is
 * survived: calls on its slots reject with a typed store error (never hang) until its replica is
 * promoted, then every key works again.
 */
import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreError, StoreTimeoutError } from '../../src/errors.js';
import { redisStore } from '../../src/redis/index.js';
import type { StoreLimit } from '../../src/stores/store.js';
import { describeStoreContract, redisTime } from '../stores/store-contract.js';
import { uniquePrefix } from '../support/redis.js';
import { type RedisCluster, startRedisCluster } from '../support/redis-cluster.js';

let cluster: RedisCluster;
let client: Cluster;

function connect(): Cluster {
  const c = new Cluster([...cluster.startupNodes], {
    enableOfflineQueue: false,
    redisOptions: { connectTimeout: 500, maxRetriesPerRequest: 0 },
    clusterRetryStrategy: () => 100,
  });
  c.on('error', () => undefined);
  return c;
}

beforeAll(async () => {
  cluster = await startRedisCluster(3);
  client = connect();
  await new Promise<void>((resolve, reject) => {
    client.once('ready', resolve);
    client.once('error', reject);
  });
}, 60_000);

afterAll(async () => {
  client?.disconnect();
  await cluster?.stop();
});

// A generous command timeout: on a busy 2-core machine six nodes and the test share the CPU, and
// the contract is about decisions, not speed (timeouts are the failover test's subject).
describeStoreContract('redis cluster', () => ({
  store: redisStore({ client, prefix: uniquePrefix('cluster'), commandTimeoutMs: 2_000 }),
  time: redisTime(client),
}));

const limit: StoreLimit = { algorithm: 'sliding-log', limit: 5, windowMs: 60_000 };

/** Redis keys under `prefix` on every master, with the node that holds each. */
async function keysByNode(prefix: string): Promise<Map<string, string[]>> {
  const byNode = new Map<string, string[]>();
  for (const node of client.nodes('master')) {
    const found: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await node.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      found.push(...keys);
    } while (cursor !== '0');
    byNode.set(`${node.options.host}:${node.options.port}`, found);
  }
  return byNode;
}

describe('redis cluster: where keys live', () => {
  it('keeps every Redis key of one limit in one slot', async () => {
    const prefix = uniquePrefix('slot');
    const store = redisStore({ client, prefix });
    for (const algorithm of ['token-bucket', 'sliding-window-counter', 'sliding-log'] as const)
      await store.take('one-limit', { ...limit, algorithm }, 1);
    await store.reserve('one-limit', { ...limit, algorithm: 'token-bucket' }, 1);
    await store.holdGate('one-limit', 5_000);
    const keys = [...(await keysByNode(prefix)).values()].flat();
    expect(keys.length).toBeGreaterThanOrEqual(3);
    const slots = new Set(await Promise.all(keys.map((key) => client.cluster('KEYSLOT', key))));
    expect(slots.size).toBe(1);
    expect([...slots][0]).toBe(await client.cluster('KEYSLOT', '{one-limit}'));
  });

  it('spreads many limits over all three masters', async () => {
    const prefix = uniquePrefix('spread');
    const store = redisStore({ client, prefix });
    const n = 300;
    await Promise.all(Array.from({ length: n }, (_, i) => store.take(`user-${i}`, limit, 1)));
    // Limits per master: a limit's Redis keys share its `{key}` hash tag (a sliding log has two).
    const tag = (redisKey: string) => redisKey.slice(redisKey.indexOf('{'), redisKey.indexOf('}') + 1);
    const counts = [...(await keysByNode(prefix)).values()].map((keys) => new Set(keys.map(tag)).size);
    expect(counts).toHaveLength(3);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(n);
    // Slots are spread evenly (5,461 per master), so each holds about a third; 20 % is far from luck.
    for (const count of counts) expect(count).toBeGreaterThan(n * 0.2);
  });
});

describe('redis cluster: keys chosen by clients', () => {
  it('keys with braces or 100 KB of text cannot crowd one slot', async () => {
    const prefix = uniquePrefix('hostile');
    const store = redisStore({ client, prefix });
    // Unhashed, `{a}{1}` … `{a}{300}` would all be tagged `a`: one slot, one master.
    const keys = [
      ...Array.from({ length: 150 }, (_, i) => `a}{${i}`),
      ...Array.from({ length: 150 }, (_, i) => `${i}${'z'.repeat(100_000)}`),
    ];
    for (const key of keys) expect((await store.take(key, limit, 1)).allowed).toBe(true);
    const byNode = [...(await keysByNode(prefix)).values()];
    const slots = new Set(await Promise.all(byNode.flat().map((key) => client.cluster('KEYSLOT', key))));
    expect(slots.size).toBeGreaterThan(250);
    for (const found of byNode) expect(found.length).toBeGreaterThan(0);
    for (const key of byNode.flat()) expect(key.length).toBeLessThan(100);
    // Each is still its own limit: a second take on one key counts against it alone.
    for (let i = 1; i < 5; i++) await store.take(keys[0]!, limit, 1);
    expect((await store.take(keys[0]!, limit, 1)).allowed).toBe(false);
    expect((await store.take(keys[1]!, limit, 1)).allowed).toBe(true);
  });
});

describe('redis cluster: a master killed mid-run', () => {
  it('fails its slots with a typed error until the replica takes over, then every key works', async () => {
    const prefix = uniquePrefix('failover');
    const store = redisStore({ client, prefix, commandTimeoutMs: 300 });
    const big: StoreLimit = { algorithm: 'token-bucket', limit: 1_000_000, windowMs: 1_000 };
    // Two keys on different masters: one whose master is killed, one that must keep working.
    const slotOf = async (key: string) => Number(await client.cluster('KEYSLOT', `{${key}}`));
    const victim = await cluster.masterOf(await slotOf('victim'));
    let survivorKey = '';
    for (let i = 0; !survivorKey; i++) {
      const master = await cluster.masterOf(await slotOf(`survivor-${i}`));
      if (master.port !== victim.port) survivorKey = `survivor-${i}`;
    }
    expect((await store.take('victim', big, 1)).allowed).toBe(true);

    await victim.kill();
    const failures: unknown[] = [];
    const survivorFailures: unknown[] = [];
    let recovered = false;
    const deadline = Date.now() + 30_000;
    while (!recovered && Date.now() < deadline) {
      const started = Date.now();
      const [onVictim, onSurvivor] = await Promise.allSettled([
        store.take('victim', big, 1),
        store.take(survivorKey, big, 1),
      ]);
      // Every call settles within the store's timeout (plus scheduling slack): nothing hangs.
      expect(Date.now() - started).toBeLessThan(2_000);
      if (onSurvivor.status === 'rejected') survivorFailures.push(onSurvivor.reason);
      if (onVictim.status === 'fulfilled') recovered = onVictim.value.allowed;
      else failures.push(onVictim.reason);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(recovered).toBe(true);
    expect(failures.length).toBeGreaterThan(0);
    // Failures are typed store errors, so a server face fails open or closed as configured. While
    // ioredis re-reads the slots, a call on another master can fail too (fewer than on the victim).
    for (const error of [...failures, ...survivorFailures])
      expect(error instanceof StoreError || error instanceof StoreTimeoutError).toBe(true);
    expect(survivorFailures.length).toBeLessThan(failures.length);
    // The killed master's replica serves its slots now, and every key works again.
    expect((await cluster.masterOf(await slotOf('victim'))).port).not.toBe(victim.port);
    for (let i = 0; i < 20; i++) {
      expect((await store.take('victim', big, 1)).allowed).toBe(true);
      expect((await store.take(survivorKey, big, 1)).allowed).toBe(true);
    }
  }, 60_000);
});
