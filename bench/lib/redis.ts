/**
 * The Redis the bench uses: `REDIS_URL` when set, else a private redis-server (no persistence,
 * loopback) on a free port in 44000–44999, stopped by pid at the end.
 */
import { createServer } from 'node:net';
import { type RedisServer, startRedisServer } from '../../test/support/redis-server.js';

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

async function freeBenchPort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 44000 + Math.floor(Math.random() * 1000);
    if (await portIsFree(port)) return port;
  }
  throw new Error('No free port in 44000–44999');
}

export interface BenchRedis {
  url: string;
  stop(): Promise<void>;
}

let shared: { own: RedisServer | undefined; url: string } | undefined;

/** One Redis for the whole run (started on first use). */
export async function benchRedis(): Promise<BenchRedis> {
  if (!shared) {
    const fromEnv = process.env.REDIS_URL;
    const own = fromEnv ? undefined : await startRedisServer(await freeBenchPort());
    shared = { own, url: fromEnv ?? own!.url };
  }
  return { url: shared.url, stop: stopBenchRedis };
}

export async function stopBenchRedis(): Promise<void> {
  const own = shared?.own;
  shared = undefined;
  await own?.stop();
}
