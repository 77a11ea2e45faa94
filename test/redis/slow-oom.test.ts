/**
 * A slow Redis (it sleeps seconds per command: `DEBUG SLEEP`) and a Redis out of memory
 * (`maxmemory` below what it uses, `noeviction`): store calls reject with a typed error within
 * their timeout, the server face answers open or closed as configured within `storeTimeoutMs`,
 * and both recover once Redis does. Runs its own redis-server (the faults are server-wide).
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreError, StoreTimeoutError } from '../../src/errors.js';
import { redisStore } from '../../src/redis/index.js';
import { rateLimit } from '../../src/server/rate-limit.js';
import type { StoreLimit } from '../../src/stores/store.js';
import { type RedisServer, startRedisServer } from '../support/redis-server.js';

let server: RedisServer;
let client: Redis;
let admin: Redis;
const limit: StoreLimit = { algorithm: 'token-bucket', limit: 100, windowMs: 1_000 };
/** Loose: only catches a wait far past the timeout on a loaded 2-core machine. */
const MARGIN = 900;

beforeAll(async () => {
  server = await startRedisServer(undefined, () => ['--enable-debug-command', 'yes']);
  client = new Redis(server.url, { enableOfflineQueue: false, lazyConnect: true });
  admin = new Redis(server.url, { lazyConnect: true });
  for (const c of [client, admin]) {
    c.on('error', () => undefined);
    await c.connect();
  }
}, 15_000);
afterAll(async () => {
  client.disconnect();
  admin.disconnect();
  await server.stop();
});

async function timed<T>(call: () => Promise<T>): Promise<{ result: PromiseSettledResult<T>; ms: number }> {
  const started = performance.now();
  const [result] = await Promise.allSettled([call()]);
  return { result: result!, ms: performance.now() - started };
}

describe('a slow Redis (2 s per command)', () => {
  it('store calls time out typed; the server answers open or closed in time; then all recover', async () => {
    const store = redisStore({ client, prefix: 'slow', commandTimeoutMs: 150 });
    const open = rateLimit({ store, storeTimeoutMs: 100, policy: { limit: 10 } });
    const closed = rateLimit({ store, storeTimeoutMs: 100, onStoreError: 'closed', policy: { limit: 10 } });
    expect((await store.take('k', limit, 1)).allowed).toBe(true);

    const sleeping = admin.call('DEBUG', 'SLEEP', '2'); // Redis answers nobody for 2 s
    const take = await timed(() => store.take('k', limit, 1));
    expect(take.result.status).toBe('rejected');
    expect((take.result as PromiseRejectedResult).reason).toBeInstanceOf(StoreTimeoutError);
    expect(take.ms).toBeLessThan(150 + MARGIN);
    const request = () => new Request('http://api.test/');
    const admitted = await timed(() => open.check(request(), { ip: '192.0.2.1' }));
    const refused = await timed(() => closed.check(request(), { ip: '192.0.2.1' }));
    for (const { ms } of [admitted, refused]) expect(ms).toBeLessThan(100 + MARGIN);
    expect(admitted.result).toMatchObject({ status: 'fulfilled', value: { allowed: true } });
    expect(refused.result).toMatchObject({ status: 'fulfilled', value: { allowed: false, status: 503 } });

    await sleeping;
    expect((await store.take('k2', limit, 1)).allowed).toBe(true);
    expect((await closed.check(request(), { ip: '192.0.2.1' })).allowed).toBe(true);
  }, 15_000);
});

describe('a Redis out of memory', () => {
  it('writes fail with a typed StoreError; the server fails open or closed; then all recover', async () => {
    const store = redisStore({ client, prefix: 'oom', commandTimeoutMs: 500 });
    const open = rateLimit({ store, policy: { limit: 10 } });
    const closed = rateLimit({ store, onStoreError: 'closed', policy: { limit: 10 } });
    await admin.config('SET', 'maxmemory-policy', 'noeviction');
    await admin.config('SET', 'maxmemory', '1'); // below what Redis already uses: every write is refused
    try {
      const take = await timed(() => store.take('fresh', limit, 1));
      expect(take.result.status).toBe('rejected');
      const reason = (take.result as PromiseRejectedResult).reason;
      expect(reason).toBeInstanceOf(StoreError);
      expect(String((reason as Error).cause)).toMatch(/OOM/);
      const request = () => new Request('http://api.test/');
      expect(await open.check(request(), { ip: '192.0.2.2' })).toMatchObject({ allowed: true });
      expect(await closed.check(request(), { ip: '192.0.2.2' })).toMatchObject({
        allowed: false,
        status: 503,
      });
    } finally {
      await admin.config('SET', 'maxmemory', '0');
    }
    expect((await store.take('fresh', limit, 1)).allowed).toBe(true);
    expect((await closed.check(new Request('http://api.test/'), { ip: '192.0.2.2' })).allowed).toBe(true);
  });
});
