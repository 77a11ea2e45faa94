import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { type RedisScriptClient, redisStore } from '../../src/redis/index.js';
import type { AlgorithmName, StoreLimit } from '../../src/stores/store.js';
import { readState, redisTimeMs, redisUrl, uniquePrefix } from '../support/redis.js';
import { startRedisServer } from '../support/redis-server.js';

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

  it('takes and reservations of one key in one batch (replies of different widths) decide as one by one', async () => {
    const { wrapped, sent } = counting();
    const prefix = uniquePrefix('batch-mixed');
    const store = redisStore({ client: wrapped, prefix });
    const single = redisStore({ client, prefix: `${prefix}-single` });
    const limit: StoreLimit = { algorithm: 'token-bucket', limit: 3, windowMs: 60_000 };
    const plan = ['take', 'reserve', 'take', 'reserve', 'take', 'take'] as const;
    const run = (s: typeof store, op: (typeof plan)[number]) =>
      op === 'take'
        ? s.take('k', limit, 1).then((d) => ({ allowed: d.allowed, remaining: d.remaining }))
        : s.reserve('k', limit, 1).then((r) => ({ waiting: r.waitMs > 0 }));
    await store.take('warm', limit, 1);
    sent.length = 0;
    const batched = await Promise.all(plan.map((op) => run(store, op)));
    expect(sent).toHaveLength(1);
    const oneByOne = [];
    for (const op of plan) oneByOne.push(await run(single, op));
    expect(batched).toEqual(oneByOne);
    expect(batched).toEqual([
      { allowed: true, remaining: 2 },
      { waiting: false },
      { allowed: true, remaining: 0 },
      { waiting: true },
      { allowed: false, remaining: 0 },
      { allowed: false, remaining: 0 },
    ]);
  });

  it('calls of different limits in one batch each get their own limit', async () => {
    const { wrapped, sent } = counting();
    const store = redisStore({ client: wrapped, prefix: uniquePrefix('batch-limits') });
    const small: StoreLimit = { algorithm: 'token-bucket', limit: 2, windowMs: 60_000 };
    const large: StoreLimit = { algorithm: 'token-bucket', limit: 10, windowMs: 1000 };
    await store.take('warm', small, 1);
    sent.length = 0;
    const plan: [string, StoreLimit, number][] = [
      ['s', small, 1],
      ['l', large, 3],
      ['l', large, 3],
      ['s', small, 1],
      ['s', small, 1],
      ['l', large, 5],
    ];
    const decisions = await Promise.all(plan.map(([key, limit, cost]) => store.take(key, limit, cost)));
    expect(sent).toHaveLength(1);
    expect(decisions.map((d) => [d.allowed, d.limit, d.remaining])).toEqual([
      [true, 2, 1],
      [true, 10, 7],
      [true, 10, 4],
      [true, 2, 0],
      [false, 2, 0],
      [false, 10, 4],
    ]);
  });

  it('on a Cluster batches only calls of the same key (one hash slot)', async () => {
    const { wrapped, sent } = counting(true);
    const store = redisStore({ client: wrapped, prefix: uniquePrefix('batch-cluster') });
    const limit: StoreLimit = { algorithm: 'token-bucket', limit: 100, windowMs: 1000 };
    await store.take('warm', limit, 1);
    sent.length = 0;
    await Promise.all(['a', 'b', 'a', 'c', 'a', 'b'].map((key) => store.take(key, limit, 1)));
    expect(sent.sort()).toEqual(['evalsha 1', 'evalsha 2', 'evalsha 3']);
  });

  it('with no batch in flight sends a turn of 16 or more calls as two halves, the second one turn later; with one in flight, as one', async () => {
    const { wrapped, sent } = counting();
    const store = redisStore({ client: wrapped, prefix: uniquePrefix('batch-split') });
    const limit: StoreLimit = { algorithm: 'token-bucket', limit: 1000, windowMs: 60_000 };
    await store.take('warm', limit, 1);
    sent.length = 0;
    const takes = (n: number, key: string) => Array.from({ length: n }, () => store.take(key, limit, 1));
    const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
    const first = takes(40, 'a');
    await turn();
    // The first half is out (its reply is read no sooner than the next turn); the second waits.
    expect(sent).toEqual(['evalsha 20']);
    const second = takes(40, 'a');
    await turn();
    // The second half goes first, then these 40 as one: a batch is in flight.
    expect(sent).toEqual(['evalsha 20', 'evalsha 20', 'evalsha 40']);
    const decisions = await Promise.all([...first, ...second]);
    expect(decisions.map((d) => d.remaining)).toEqual(Array.from({ length: 80 }, (_, i) => 999 - i));
    sent.length = 0;
    await Promise.all(takes(15, 'b'));
    expect(sent).toEqual(['evalsha 15']);
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

/**
 * A Redis of its own (commandstats are server-wide, so only the test's commands are counted), a
 * token-bucket store on it (50 per minute) with its script loaded and the stats reset,
 * `calls()`: how many times each command has run since, and `before`: Redis `TIME` (ms) just
 * before the reset.
 */
async function ownRedis(prefix: string) {
  const own = await startRedisServer();
  const mine = new Redis(own.url, { enableOfflineQueue: false, lazyConnect: true });
  onTestFinished(async () => {
    mine.disconnect();
    await own.stop();
  });
  await mine.connect();
  const store = redisStore({ client: mine, prefix });
  const limit: StoreLimit = { algorithm: 'token-bucket', limit: 50, windowMs: 60_000 };
  await store.take('warm', limit, 1); // loads the script
  const before = await redisTimeMs(mine); // Redis time before anything the test counts
  await mine.config('RESETSTAT');
  const calls = async () => {
    const stats = await mine.info('commandstats');
    return (name: string) => Number(stats.match(new RegExp(`^cmdstat_${name}:calls=(\\d+)`, 'm'))?.[1] ?? 0);
  };
  return { mine, store, limit, calls, before };
}

describe('redisStore batch script on Redis', () => {
  it('reads TIME once and reads and writes a shared key once per batch (two batches of 32); the decisions and the expiry are those of one by one', async () => {
    const { mine, store, limit, calls, before } = await ownRedis('wb');
    const decisions = await Promise.all(Array.from({ length: 64 }, () => store.take('hot', limit, 1)));
    const count = await calls();
    // Nothing in flight: the 64 go out as two batches of 32, each reading and writing the key once.
    expect(['evalsha', 'time', 'mget', 'set', 'get'].map(count)).toEqual([2, 2, 2, 2, 0]);
    expect(decisions.filter((d) => d.allowed)).toHaveLength(50);
    expect(decisions.map((d) => d.remaining).slice(0, 50)).toEqual(
      Array.from({ length: 50 }, (_, i) => 49 - i),
    );
    expect(decisions.slice(50).every((d) => !d.allowed && d.remaining === 0 && d.retryAfterMs > 0)).toBe(
      true,
    );
    // The state written once is the state after the 50th take, and expires at that take's reset.
    const [[tokens], ttl] = [await readState(mine, 'wb:{hot}:tb'), await mine.pttl('wb:{hot}:tb')];
    const sinceWrite = (await redisTimeMs(mine)) - before;
    expect(tokens).toBeLessThan(1);
    // One ms of slack: Redis counts PX from its whole-ms clock, the state from `TIME`'s µs.
    expect(ttl).toBeLessThanOrEqual(decisions[49]!.resetMs + 1);
    // Less the time since the write (bracketed on Redis's clock, not a fixed second of slack).
    expect(ttl).toBeGreaterThanOrEqual(decisions[49]!.resetMs - sinceWrite);
  });

  it('over distinct keys reads the keys of a batch with one MGET and writes each with one SET … PX', async () => {
    const { mine, store, limit, calls } = await ownRedis('wd');
    const keys = Array.from({ length: 64 }, (_, i) => `k${i}`);
    const decisions = await Promise.all(keys.map((key) => store.take(key, limit, 1)));
    const count = await calls();
    expect(['evalsha', 'mget', 'set', 'get'].map(count)).toEqual([2, 2, 64, 0]);
    expect(decisions.every((d) => d.allowed && d.remaining === 49)).toBe(true);
    expect(await readState(mine, 'wd:{k63}:tb')).toHaveLength(2);
  });

  it.each([
    ['token-bucket', 'tb'],
    ['gcra', 'gcra'],
    ['fixed-window', 'fw'],
    ['sliding-window-counter', 'swc'],
    ['sliding-log', 'sl:meta'],
  ] as const)(
    '%s reads a state key of another type (a hash, as earlier versions kept) as a fresh key and replaces it',
    async (algorithm, suffix) => {
      const prefix = uniquePrefix('old-hash');
      const name = `${prefix}:{k}:${suffix}`;
      await client.hset(name, 'a', '5', 'b', '5', 'ts', String(Date.now()));
      const store = redisStore({ client, prefix });
      const decision = await store.take('k', { algorithm, limit: 5, windowMs: 60_000 }, 1);
      expect(decision).toMatchObject({ allowed: true, remaining: 4 });
      expect(await client.type(name)).toBe('string');
    },
  );

  it('a sliding log whose state key is gone or of another type starts with an empty log', async () => {
    const prefix = uniquePrefix('old-log');
    const now = await redisTimeMs(client);
    // An entry taken 1 s ago (cost 3) in a log whose state is a hash of an earlier version.
    await client.zadd(`${prefix}:{k}:sl`, Math.floor(now) - 1000, '7:3');
    await client.hset(`${prefix}:{k}:sl:meta`, 'sum', '3', 'seq', '7');
    const store = redisStore({ client, prefix });
    const limit: StoreLimit = { algorithm: 'sliding-log', limit: 5, windowMs: 60_000 };
    const decisions = [];
    for (let i = 0; i < 6; i++) decisions.push(await store.take('k', limit, 1));
    const elapsed = (await redisTimeMs(client)) - now;
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, true, true, false]);
    // The refusal waits for the first of the five new entries (60 s less the time since it was
    // taken, at most `elapsed`), not for the old one (59 s less that time, and more).
    expect(decisions[5]!.retryAfterMs).toBeGreaterThanOrEqual(60_000 - elapsed - 1);
    expect(await client.zcard(`${prefix}:{k}:sl`)).toBe(5);
  });
});
