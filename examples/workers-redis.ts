/**
 * Four worker processes share one quota through Redis, against the reference server
 * (200/s, burst 20, keyed by API key). Each process alone would pace at 200/s and together they
 * would send 4 × 200/s; sharing one atomic bucket in Redis keeps the fleet at 200/s.
 *
 * Run: `node --import tsx examples/workers-redis.ts` (uses REDIS_URL, or starts a private
 * redis-server on loopback if Debian's `redis-server` is installed).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { createFetch } from '../src/index.js';
import { redisStore } from '../src/redis/index.js';
import { startServer } from '../src/server/index.js';

const WORKERS = 4;
const PER_WORKER = 250;
const RATE = 200;
const BURST = 20;

if (process.argv[2] === 'worker') {
  // One worker: its own process, its own client, one shared bucket and gate in Redis.
  const [serverUrl, redisUrl] = process.argv.slice(3) as [string, string];
  const redis = new Redis(redisUrl, { enableOfflineQueue: false, lazyConnect: true });
  await redis.connect();
  const fetch = createFetch({
    rate: RATE,
    burst: BURST,
    store: redisStore({ client: redis }),
    expectedWorkers: WORKERS,
  });
  let next = 0;
  let failures = 0;
  const firstAt = Date.now();
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next++ < PER_WORKER) {
        const res = await fetch(`${serverUrl}/items`, { headers: { 'x-api-key': 'team-key' } });
        if (res.status !== 200) failures++;
        await res.arrayBuffer();
      }
    }),
  );
  redis.disconnect();
  process.stdout.write(JSON.stringify({ failures, firstAt, lastAt: Date.now(), stats: fetch.stats()[0] }));
  if (process.env.DEBUG) process.stderr.write(`${JSON.stringify(fetch.stats()[0])}\n`);
} else {
  const { url: redisUrl, stop } = await redisForExample();
  const prefix = `headway-example-${process.pid}`;
  const server = await startServer({ rate: RATE, burst: BURST, headers: 'ietf', keyHeader: 'x-api-key' });
  const started = performance.now();
  const workers: ChildProcess[] = Array.from({ length: WORKERS }, () =>
    spawn(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(import.meta.url), 'worker', server.url, redisUrl],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
        env: { ...process.env, HEADWAY_PREFIX: prefix },
      },
    ),
  );
  const outputs = await Promise.all(
    workers.map(async (worker) => {
      let out = '';
      worker.stdout?.on('data', (chunk) => {
        out += chunk;
      });
      const [code] = await once(worker, 'exit');
      if (code !== 0) throw new Error(`worker exited with ${code}`);
      return JSON.parse(out) as { failures: number; firstAt: number; lastAt: number };
    }),
  );
  // From the first worker's first call to the last worker's last answer (process start-up excluded).
  const seconds =
    (Math.max(...outputs.map((o) => o.lastAt)) - Math.min(...outputs.map((o) => o.firstAt))) / 1000;
  const withStartup = (performance.now() - started) / 1000;
  const total = WORKERS * PER_WORKER;
  const minimum = (total - BURST) / RATE;
  const { allowed, refused } = server.metrics();
  console.log(
    `${WORKERS} processes × ${PER_WORKER} GETs: ${seconds.toFixed(2)} s (${(seconds / minimum).toFixed(2)} × the minimum ` +
      `${minimum.toFixed(2)} s); server allowed ${allowed}, refused ${refused} (${((refused / total) * 100).toFixed(1)} %); ` +
      `failed calls ${outputs.reduce((sum, o) => sum + o.failures, 0)}; ${withStartup.toFixed(2)} s with process start-up`,
  );
  await server.close();
  await stop();
}

/** REDIS_URL, or a private redis-server on a free loopback port (persistence off). */
async function redisForExample(): Promise<{ url: string; stop: () => Promise<void> }> {
  if (process.env.REDIS_URL) return { url: process.env.REDIS_URL, stop: async () => {} };
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise((resolve) => probe.close(resolve));
  const redis = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  redis.on('error', (error) => {
    console.error(`cannot start redis-server (${error.message}); set REDIS_URL or install redis-server`);
    process.exit(1);
  });
  for (let attempt = 0; ; attempt++) {
    const client = new Redis(port, '127.0.0.1', {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.ping();
      client.disconnect();
      break;
    } catch (error) {
      client.disconnect();
      if (attempt === 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      redis.kill();
      await once(redis, 'exit');
    },
  };
}
