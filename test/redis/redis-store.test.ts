import { type Cluster, Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it, onTestFinished } from 'vitest';
import { type RedisScriptClient, redisStore } from '../../src/redis/index.js';
import { redisKey } from '../../src/redis/keys.js';
import { algorithmScripts, gateScript } from '../../src/redis/scripts/index.js';
import type { AlgorithmName } from '../../src/stores/store.js';
import { readState, redisTimeMs, redisUrl, uniquePrefix, writeState } from '../support/redis.js';
import { startRedisServer } from '../support/redis-server.js';

let client: Redis;

beforeAll(async () => {
  client = new Redis(redisUrl(), { enableOfflineQueue: false, lazyConnect: true });
  await client.connect();
});
afterAll(() => client.disconnect());

const ALGORITHMS = Object.keys(algorithmScripts) as AlgorithmName[];

describe('redisStore options', () => {
  it('accepts ioredis Redis and Cluster as they are (checked by tsc in `npm run lint`)', () => {
    expectTypeOf<Cluster>().toMatchTypeOf<RedisScriptClient>();
    expectTypeOf<Redis>().toMatchTypeOf<RedisScriptClient>();
  });

  it('validates eagerly with the one message shape', () => {
    expect(() => redisStore({ client: {} as RedisScriptClient })).toThrow(
      /^Expected `client` to be a Redis client/,
    );
    expect(() => redisStore({ client, prefix: 'a{b' })).toThrow(
      'Expected `prefix` to be a non-empty string without `{`, `}` or a lone surrogate, got `"a{b"` (string)',
    );
    expect(() => redisStore({ client, commandTimeoutMs: 0 })).toThrow(
      'Expected `commandTimeoutMs` to be a positive finite number, got `0` (number)',
    );
    expect(() => redisStore({ client, prefix: undefined, commandTimeoutMs: undefined })).not.toThrow();
  });

  it('takes no clock: time is Redis TIME', async () => {
    const prefix = uniquePrefix('time');
    // There is no clock option (tsc fails if one is added), and a stray one is refused, naming it.
    // @ts-expect-error see above
    expect(() => redisStore({ client, prefix, clock: { now: () => 0, wallNow: () => 0 } })).toThrow(
      expect.objectContaining({ code: 'HEADWAY_INVALID_OPTION', option: 'clock' }),
    );
    const store = redisStore({ client, prefix });
    const before = await redisTimeMs(client);
    await store.take('k', { algorithm: 'token-bucket', limit: 5, windowMs: 60_000 }, 1);
    const after = await redisTimeMs(client);
    const [, written] = await readState(client, `${prefix}:{k}:tb`);
    expect(written).toBeGreaterThanOrEqual(before);
    expect(written).toBeLessThanOrEqual(after);
  });

  it('rejects an empty key', async () => {
    const store = redisStore({ client });
    await expect(store.take('', { algorithm: 'gcra', limit: 1, windowMs: 1 }, 1)).rejects.toMatchObject({
      code: 'HEADWAY_INVALID_OPTION',
    });
  });
});

describe('keys on Redis', () => {
  it('every key of one limit key shares its {hash tag} and carries a TTL', async () => {
    const prefix = uniquePrefix('keys');
    const store = redisStore({ client, prefix });
    const key = 'user:{42}';
    for (const algorithm of ALGORITHMS) await store.take(key, { algorithm, limit: 5, windowMs: 60_000 }, 1);
    await store.holdGate(key, 60_000);
    const keys = (await client.keys(`${prefix}:*`)).sort();
    expect(keys).toEqual(
      [...ALGORITHMS.flatMap((algorithm) => algorithmScripts[algorithm].keys), 'gate']
        .map((suffix) => redisKey(prefix, key, suffix))
        .sort(),
    );
    const tags = new Set<string>();
    for (const name of keys) {
      // Redis Cluster hashes the text between the first `{` and the next `}`: the same for all. A
      // key with braces of its own is tagged by its hash, so its braces cannot move the tag.
      const tag = name.slice(name.indexOf('{') + 1, name.indexOf('}', name.indexOf('{')));
      expect(tag).toMatch(/^#[\w-]{43}$/);
      tags.add(tag);
      const ttl = await client.pttl(name);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(120_000);
    }
    expect(tags.size).toBe(1);
  });

  it('keys expire exactly when they would equal a fresh key (the reset)', async () => {
    const prefix = uniquePrefix('expire');
    const store = redisStore({ client, prefix });
    for (const algorithm of ALGORITHMS) {
      const before = await redisTimeMs(client);
      const { resetMs } = await store.take('k', { algorithm, limit: 5, windowMs: 60_000 }, 1);
      if (algorithm === 'token-bucket' || algorithm === 'gcra') expect(resetMs).toBe(12_000); // one unit
      for (const suffix of algorithmScripts[algorithm].keys) {
        const ttl = await client.pttl(`${prefix}:{k}:${suffix}`);
        const elapsed = (await redisTimeMs(client)) - before;
        // One ms of slack: Redis counts PX from its whole-ms clock, the state from `TIME`'s µs.
        expect(ttl, `${algorithm} ${suffix}`).toBeLessThanOrEqual(resetMs + 1);
        expect(ttl, `${algorithm} ${suffix}`).toBeGreaterThanOrEqual(resetMs - elapsed - 1);
      }
    }
  });
});

describe('scripts', () => {
  it('falls back to EVAL after SCRIPT FLUSH (NOSCRIPT) and caches the script again', async () => {
    // SCRIPT FLUSH is server-wide, and files running beside this one load scripts on the shared
    // Redis: this test gets a Redis of its own, so the cache is surely empty after the flush.
    const own = await startRedisServer();
    const client = new Redis(own.url, { enableOfflineQueue: false, lazyConnect: true });
    onTestFinished(async () => {
      client.disconnect();
      await own.stop();
    });
    await client.connect();
    const store = redisStore({ client, prefix: uniquePrefix('noscript') });
    await client.script('FLUSH');
    const shas = [...ALGORITHMS.map((algorithm) => algorithmScripts[algorithm].script.sha), gateScript.sha];
    expect(await client.script('EXISTS', ...shas)).toEqual(shas.map(() => 0));
    for (const algorithm of ALGORITHMS) {
      expect((await store.take('k', { algorithm, limit: 5, windowMs: 1000 }, 1)).allowed).toBe(true);
    }
    expect(await store.gateWait('k')).toBe(0);
    expect(await client.script('EXISTS', ...shas)).toEqual(shas.map(() => 1));
  });

  it('a server clock that steps back never removes units (gcra)', async () => {
    const prefix = uniquePrefix('stepback');
    const store = redisStore({ client, prefix });
    const limit = { algorithm: 'gcra', limit: 5, windowMs: 60_000 } as const;
    expect((await store.take('k', limit, 1)).remaining).toBe(4);
    // Pretend the state was written an hour ahead of Redis's clock now (the clock stepped back).
    const name = `${prefix}:{k}:gcra`;
    const [tat, ts] = (await readState(client, name)) as [number, number];
    await writeState(client, name, [tat + 3_600_000, ts + 3_600_000]);
    const next = await store.take('k', limit, 1);
    expect(next).toMatchObject({ allowed: true, remaining: 3 });
  });

  it('a server clock that steps back never removes units (token bucket)', async () => {
    const prefix = uniquePrefix('stepback');
    const store = redisStore({ client, prefix });
    const limit = { algorithm: 'token-bucket', limit: 5, windowMs: 60_000 } as const;
    expect((await store.take('k', limit, 1)).remaining).toBe(4);
    const name = `${prefix}:{k}:tb`;
    const [tokens, ts] = (await readState(client, name)) as [number, number];
    await writeState(client, name, [tokens, ts + 3_600_000]);
    expect(await store.take('k', limit, 1)).toMatchObject({ allowed: true, remaining: 3 });
  });

  it('keeps fractional state as exact doubles', async () => {
    const prefix = uniquePrefix('fraction');
    const store = redisStore({ client, prefix });
    await store.take('k', { algorithm: 'token-bucket', limit: 3, windowMs: 1e9 }, 0.1);
    const [tokens] = await readState(client, `${prefix}:{k}:tb`);
    expect(tokens).toBeGreaterThanOrEqual(3 - 0.1);
    expect(tokens).toBeLessThan(3 - 0.1 + 1e-5);
  });
});
