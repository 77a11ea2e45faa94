/**
 * The Redis the tests use: `REDIS_URL` when set (as `.ci/run` does), else a private redis-server
 * started here and stopped by pid afterwards. Without either, the tests fail with a clear message.
 */
import { afterAll, beforeAll } from 'vitest';
import { type RedisServer, startRedisServer } from './redis-server.js';

/** Where the suite's Redis is; `url` is valid inside tests (after `beforeAll`). */
export interface TestRedis {
  url: string;
}

/** Registers `beforeAll`/`afterAll` hooks that provide a Redis URL for the current file. */
export function useRedis(): TestRedis {
  const handle: TestRedis = { url: '' };
  let own: RedisServer | undefined;
  beforeAll(async () => {
    const fromEnv = process.env.REDIS_URL;
    if (fromEnv) {
      handle.url = fromEnv;
      return;
    }
    own = await startRedisServer();
    handle.url = own.url;
  }, 15_000);
  afterAll(async () => {
    await own?.stop();
  });
  return handle;
}

/** A unique key prefix per test run, so runs sharing one Redis never see each other's keys. */
export function uniquePrefix(label: string): string {
  return `headway-test-${label}-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
}
