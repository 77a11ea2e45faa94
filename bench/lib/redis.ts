/**
 * The Redis the bench uses: `REDIS_URL` when set, else a private redis-server (no persistence,
 * loopback) on a free port below the ephemeral range, as the tests' (`test/support/redis-server.ts`),
 * stopped by pid at the end.
 */
import { type RedisServer, startRedisServer } from '../../test/support/redis-server.js';

export interface BenchRedis {
  url: string;
  stop(): Promise<void>;
}

let shared: { own: RedisServer | undefined; url: string } | undefined;

/** One Redis for the whole run (started on first use). */
export async function benchRedis(): Promise<BenchRedis> {
  if (!shared) {
    const fromEnv = process.env.REDIS_URL;
    const own = fromEnv ? undefined : await startRedisServer();
    shared = { own, url: fromEnv ?? own!.url };
  }
  return { url: shared.url, stop: stopBenchRedis };
}

export async function stopBenchRedis(): Promise<void> {
  const own = shared?.own;
  shared = undefined;
  await own?.stop();
}
