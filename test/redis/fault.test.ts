import { Redis, type RedisOptions } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isHeadwayError } from '../../src/errors.js';
import { redisStore } from '../../src/redis/index.js';
import { algorithmScripts } from '../../src/redis/scripts/index.js';
import type { StoreLimit } from '../../src/stores/store.js';
import { type RedisServer, startRedisServer } from '../support/redis-server.js';

// This file kills and restarts Redis, so it always runs its own server, never REDIS_URL's.
let server: RedisServer;
const clients: Redis[] = [];

beforeAll(async () => {
  server = await startRedisServer();
}, 15_000);
afterAll(async () => {
  for (const client of clients) client.disconnect();
  await server.stop();
});

async function connect(options: RedisOptions): Promise<Redis> {
  const client = new Redis(server.url, { lazyConnect: true, ...options });
  client.on('error', () => undefined); // reconnection noise; the store reports failures itself
  clients.push(client);
  await client.connect();
  return client;
}

const limit: StoreLimit = { algorithm: 'token-bucket', limit: 100, windowMs: 1000 };
const TIMEOUT = 100;
/**
 * Loose on purpose: Redis stays down until the restart below, so a call that waited for it instead
 * of timing out would never settle; this only catches a timeout far longer than asked for, with
 * room for a loaded 2-core machine (which has stalled this process for over 500 ms). Which timer
 * fired is asserted through `timeoutMs` on the error.
 */
const MARGIN = 900;

async function failure(call: () => Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const start = performance.now();
  try {
    await call();
  } catch (error) {
    return { error, ms: performance.now() - start };
  }
  throw new Error('expected the call to fail while Redis is down');
}

async function eventually<T>(call: () => Promise<T>, withinMs: number): Promise<T> {
  const deadline = performance.now() + withinMs;
  for (;;) {
    try {
      return await call();
    } catch (error) {
      if (performance.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

describe('Redis dies mid-run (SIGKILL), then comes back on the same port', () => {
  it('calls reject with a typed error within commandTimeoutMs, then succeed again (NOSCRIPT re-load)', async () => {
    // One client as recommended (no offline queue), one with ioredis defaults (offline queue).
    const strict = await connect({ enableOfflineQueue: false });
    const queued = await connect({});
    const stores = [strict, queued].map((client) =>
      redisStore({ client, prefix: 'fault', commandTimeoutMs: TIMEOUT }),
    );
    for (const store of stores) expect((await store.take('k', limit, 1)).allowed).toBe(true);

    await server.kill();

    for (const store of stores) {
      for (const call of [
        () => store.take('k', limit, 1),
        () => store.reserve('k', limit, 1),
        () => store.holdGate('k', 10),
        () => store.gateWait('k'),
      ]) {
        const { error, ms } = await failure(call);
        expect(isHeadwayError(error)).toBe(true);
        expect(['HEADWAY_STORE_ERROR', 'HEADWAY_STORE_TIMEOUT']).toContain((error as { code: string }).code);
        expect(ms).toBeLessThan(TIMEOUT + MARGIN);
      }
    }
    // The queued client cannot fail fast: its calls wait in ioredis's queue until the timeout.
    const { error } = await failure(() => stores[1]!.take('k', limit, 1));
    expect(error).toMatchObject({
      name: 'StoreTimeoutError',
      code: 'HEADWAY_STORE_TIMEOUT',
      timeoutMs: TIMEOUT,
    });
    // The strict client fails at once with the client's error as `cause`.
    const strictFailure = await failure(() => stores[0]!.take('k', limit, 1));
    expect(strictFailure.error).toMatchObject({ name: 'StoreError', code: 'HEADWAY_STORE_ERROR' });
    expect((strictFailure.error as Error).cause).toBeInstanceOf(Error);

    await server.restart(); // empty data, empty script cache
    const sha = algorithmScripts['token-bucket'].script.sha;
    for (const [i, store] of stores.entries()) {
      const decision = await eventually(() => store.take(`after-${i}`, limit, 1), 5000);
      expect(decision).toMatchObject({ allowed: true, remaining: 99 });
    }
    expect(await strict.script('EXISTS', sha)).toEqual([1]);
  }, 15_000);
});
