/**
 * Redis store throughput: token-bucket `take` decisions per second with 64 calls in flight on one
 * ioredis connection, on one hot key and spread over 64 keys, next to a bare `PING` round trip on
 * the same connection (the ceiling for one round trip per decision).
 *
 *   npx tsup && REDIS_URL=redis://127.0.0.1:42xxx TSX_TSCONFIG_PATH=bench/tsconfig.json node --import tsx bench/redis-store.ts
 *
 * Without REDIS_URL it starts (and stops) a private redis-server on a free loopback port.
 */

import { redisStore } from 'headway/redis';
import { Redis } from 'ioredis';
import type { StoreLimit } from '../src/stores/store.js';
import { type RedisServer, startRedisServer } from '../test/support/redis-server.js';

const CONCURRENCY = 64;
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 3000);
const WARMUP_MS = 500;

interface Result {
  name: string;
  ops: number;
  perSecond: number;
  p50: number;
  p99: number;
}

async function measure(name: string, op: (i: number) => Promise<unknown>): Promise<Result> {
  const run = async (ms: number, latencies: number[] | undefined) => {
    const stopAt = performance.now() + ms;
    let count = 0;
    const loop = async (lane: number) => {
      for (let i = 0; i < 10_000_000 && performance.now() < stopAt; i++) {
        const start = performance.now();
        await op(lane * 1_000_000 + i);
        latencies?.push(performance.now() - start);
        count++;
      }
    };
    const start = performance.now();
    await Promise.all(Array.from({ length: CONCURRENCY }, (_, lane) => loop(lane)));
    return { count, elapsed: performance.now() - start };
  };
  await run(WARMUP_MS, undefined);
  const latencies: number[] = [];
  const { count, elapsed } = await run(DURATION_MS, latencies);
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { name, ops: count, perSecond: (count * 1000) / elapsed, p50: at(0.5), p99: at(0.99) };
}

const own: RedisServer | undefined = process.env.REDIS_URL ? undefined : await startRedisServer();
const url = process.env.REDIS_URL ?? own!.url;
const client = new Redis(url, { enableOfflineQueue: false, lazyConnect: true });
await client.connect();
const store = redisStore({ client, prefix: `bench-${process.pid}`, commandTimeoutMs: 1000 });
// Large enough that every take is admitted: the cost measured is the decision, not a refusal.
const limit: StoreLimit = { algorithm: 'token-bucket', limit: 1e12, windowMs: 1000 };

const results = [
  await measure('PING (one round trip, baseline)', () => client.ping()),
  await measure('token-bucket take, 1 hot key', () => store.take('hot', limit, 1)),
  await measure('token-bucket take, 64 keys', (i) => store.take(`k${i % 64}`, limit, 1)),
];

const base = results[0]!.perSecond;
console.log(
  `redis ${(await client.info('server')).match(/redis_version:(\S+)/)?.[1]}, node ${process.version}`,
);
console.log(`${CONCURRENCY} calls in flight, ${DURATION_MS} ms per scenario, one ioredis connection\n`);
console.log('| scenario | ops/s | p50 ms | p99 ms | vs PING |');
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const r of results) {
  console.log(
    `| ${r.name} | ${Math.round(r.perSecond).toLocaleString('en')} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${(r.perSecond / base).toFixed(2)} |`,
  );
}
client.disconnect();
await own?.stop();
