/**
 * One S3 worker process (spawned by bench/s3-shared.ts with an IPC channel). Argument: JSON
 * `{ client, url, redisUrl, prefix, n, concurrency, rate, burst, workers, apiKey }`. It builds its
 * client, says `ready`, waits for `go`, sends `n` GETs with `concurrency` in flight, reports
 * `{ ok, failed, attempts }` and exits.
 */

import { createFetch } from 'headway';
import { redisStore } from 'headway/redis';
import { Redis } from 'ioredis';
import { type BenchClient, bottleneckClient, headwayConfigured } from './lib/clients.js';

export interface WorkerPlan {
  client:
    | 'headway-redis'
    | 'headway-redis-learned'
    | 'headway-redis-1s'
    | 'headway-local'
    | 'bottleneck-cluster';
  url: string;
  redisUrl: string;
  prefix: string;
  n: number;
  concurrency: number;
  rate: number;
  burst: number;
  workers: number;
  apiKey: string;
}

const plan: WorkerPlan = JSON.parse(process.argv[2]!);
let attempts = 0;
let storeErrors = 0;
let goAt = 0;
const onAttempt = () => {
  attempts++;
};
const headers = { 'x-api-key': plan.apiKey };
const known = { rate: plan.rate, burst: plan.burst };
let redis: Redis | undefined;
let client: BenchClient;
if (plan.client.startsWith('headway-redis')) {
  // The README's shared-quota setup: one store, `rate` and `burst` of the whole quota, and how many
  // processes share it (each paces at rate / workers if Redis fails). `headway-redis-learned`: the
  // same store with no `rate` or `burst`, learned from the server's headers and shared.
  redis = new Redis(plan.redisUrl, { enableOfflineQueue: false, lazyConnect: true });
  await redis.connect();
  // The README's store (default commandTimeoutMs: 100), or the same with 1 s, to show how much of
  // the result is store timeouts on a loaded 2-core machine.
  const inner = redisStore({
    client: redis,
    prefix: plan.prefix,
    ...(plan.client === 'headway-redis-1s' ? { commandTimeoutMs: 1000 } : {}),
  });
  // Counts store calls that failed (timeouts included): each sends the client to local fallback pacing.
  const counted = <T>(p: Promise<T>) =>
    p.catch((error: unknown) => {
      storeErrors++;
      if (process.env.BENCH_DEBUG)
        console.error(
          `store error at ${Math.round(performance.now() - goAt)} ms: ${(error as Error).name} ${(error as Error).message}`,
        );
      throw error;
    });
  const store: typeof inner = {
    take: (...a) => counted(inner.take(...a)),
    reserve: (...a) => counted(inner.reserve(...a)),
    holdGate: (...a) => counted(inner.holdGate(...a)),
    gateWait: (...a) => counted(inner.gateWait(...a)),
  };
  // Warm-up (as S1 warms its clients): load the scripts and JIT the store on a key of its own.
  for (let i = 0; i < 20; i++)
    await inner.reserve(
      `${plan.prefix}-warm-up-${process.pid}`,
      { algorithm: 'token-bucket', limit: 1e9, windowMs: 1000 },
      1,
    );
  const fetch = createFetch({
    ...(plan.client === 'headway-redis-learned' ? {} : { rate: plan.rate, burst: plan.burst }),
    store,
    expectedWorkers: plan.workers,
    fetch: (input, init) => {
      onAttempt();
      return globalThis.fetch(input, init);
    },
  });
  client = {
    get: (url) =>
      fetch(url, { headers }).then(
        async (res) => {
          await res.arrayBuffer();
          return { ok: res.ok, status: res.status };
        },
        () => ({ ok: false, status: 0 }),
      ),
    close: async () => {
      if (process.env.BENCH_DEBUG) console.error(JSON.stringify(fetch.stats()));
    },
  };
} else if (plan.client === 'headway-local') {
  client = headwayConfigured.make({ known, onAttempt, headers });
} else {
  client = bottleneckClient.make({
    known,
    onAttempt,
    headers,
    redisUrl: plan.redisUrl,
    clusterId: plan.prefix,
  });
}
// Bottleneck connects on its own; give every client a moment to be ready before the start signal.
await new Promise((resolve) => setTimeout(resolve, 200));

process.send!({ type: 'ready' });
process.once('message', async () => {
  goAt = performance.now();
  let ok = 0;
  let failed = 0;
  let next = 0;
  const worker = async () => {
    while (next < plan.n) {
      next++;
      const outcome = await client.get(`${plan.url}/items`);
      if (outcome.ok) ok++;
      else failed++;
    }
  };
  await Promise.all(Array.from({ length: plan.concurrency }, worker));
  process.send!({ type: 'done', ok, failed, attempts, storeErrors }, () => {
    void Promise.race([client.close(), new Promise((resolve) => setTimeout(resolve, 500))]).then(() => {
      redis?.disconnect();
      process.exit(0);
    });
  });
});
