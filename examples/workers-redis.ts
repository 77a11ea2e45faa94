/**
 * Four worker processes share one quota through Redis, against the reference server
 * (200/s, burst 20, keyed by API key). Each process alone would pace at 200/s and together they
 * would send 4 × 200/s; sharing one atomic bucket in Redis keeps the fleet at 200/s.
 *
 * Run: `node --import tsx examples/workers-redis.ts` (uses REDIS_URL, or starts a private
 * redis-server on loopback if Debian's `redis-server` is installed).
 */
import { type ChildProcess, fork, spawn } from 'node:child_process';
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
  const redis = new Redis(redisUrl, {
    enableOfflineQueue: false,
    autoResendUnfulfilledCommands: false,
    lazyConnect: true,
  });
  await redis.connect();
  const fetch = createFetch({
    rate: RATE,
    burst: BURST,
    store: redisStore({ client: redis }),
    expectedWorkers: WORKERS,
  });
  // Connected and ready: wait for the start signal, so that process start-up is not measured.
  process.send?.('ready');
  await once(process, 'message');
  let next = 0;
  let failures = 0;
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
  process.send?.({ failures, shared: fetch.stats()[0]?.shared });
  process.disconnect?.();
} else {
  const { url: redisUrl, stop } = await redisForExample();
  const server = await startServer({ rate: RATE, burst: BURST, headers: 'ietf', keyHeader: 'x-api-key' });
  const workers: ChildProcess[] = Array.from({ length: WORKERS }, () =>
    fork(fileURLToPath(import.meta.url), ['worker', server.url, redisUrl], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    }),
  );
  await Promise.all(workers.map((worker) => once(worker, 'message')));
  const started = performance.now();
  const results = workers.map(async (worker) => {
    const exited = once(worker, 'exit');
    const [result] = (await Promise.race([once(worker, 'message'), exited])) as [{ failures: number }];
    if (typeof result !== 'object') throw new Error(`worker exited with ${result} before reporting`);
    return result;
  });
  for (const worker of workers) worker.send('go');
  const outputs = await Promise.all(results);
  // From the start signal to the last worker's report (process start-up and exit excluded).
  const seconds = (performance.now() - started) / 1000;
  const total = WORKERS * PER_WORKER;
  const minimum = (total - BURST) / RATE;
  const { allowed, refused } = server.metrics();
  console.log(
    `${WORKERS} processes × ${PER_WORKER} GETs: ${seconds.toFixed(2)} s (${(seconds / minimum).toFixed(2)} × the minimum ` +
      `${minimum.toFixed(2)} s); server allowed ${allowed}, refused ${refused} (${((refused / total) * 100).toFixed(1)} %); ` +
      `failed calls ${outputs.reduce((sum, o) => sum + o.failures, 0)}`,
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
