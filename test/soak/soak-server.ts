/**
 * The soak's server process: the reference server on the Redis store, recording the time of every
 * admitted request, its heap after warm-up and at the end, and its longest event-loop stall. Prints
 * `READY <url>`; reads `warm` (warm-up is over: measure from here) and `stop` (print one JSON line,
 * see {@link ServerReport}, and exit) on stdin.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { Redis } from 'ioredis';
import { redisStore } from '../../src/redis/index.js';
import { startServer } from '../../src/server/serve.js';
import type { RateLimitStore } from '../../src/stores/store.js';

/** What the server process reports. */
export interface ServerReport {
  admittedAt: number[];
  /** When the first admitted decision was asked of the store: the bucket's clock started no earlier. */
  firstAdmittedAskedAt: number;
  /**
   * ms that passed on Redis's clock (`TIME`, which the bucket refills by) per ms of this process's
   * monotonic clock, over the run: not 1 while the Redis host's wall clock is being slewed.
   */
  storeClockRate: number;
  refused: number;
  storeErrors: number;
  heapAfterWarmUp: number;
  heapAtEnd: number;
  maxStallMs: number;
}

const env = (name: string) => Number(process.env[name]);
const client = new Redis(process.env.SOAK_REDIS_URL!, { enableOfflineQueue: false, lazyConnect: true });
await client.connect();
/** Redis's clock in ms, and ours (ms from `start`), read together. */
const readClocks = async (): Promise<{ redis: number; local: number }> => {
  const before = performance.now() - start;
  const [seconds, micros] = await client.time();
  const after = performance.now() - start;
  return { redis: Number(seconds) * 1000 + Number(micros) / 1000, local: (before + after) / 2 };
};
const admittedAt: number[] = [];
let refused = 0;
let storeErrors = 0;
const start = performance.now();
const clocksAtStart = await readClocks();
/** When the earliest admitted decision was asked of the store (ms from start): Redis decided it no earlier. */
let firstAdmittedAskedAt = Number.POSITIVE_INFINITY;
/** The store, noting when each admitted decision was asked for. */
function timedStore(store: RateLimitStore): RateLimitStore {
  return {
    ...store,
    take: (key, limit, cost) => {
      const askedAt = performance.now() - start;
      return store.take(key, limit, cost).then((decision) => {
        if (decision.allowed) firstAdmittedAskedAt = Math.min(firstAdmittedAskedAt, askedAt);
        return decision;
      });
    },
  };
}
const server = await startServer({
  rate: env('SOAK_RATE'),
  burst: env('SOAK_BURST'),
  keyHeader: 'x-soak-key',
  limiter: {
    // Generous timeouts: the soak checks the bound and stability, not how a slow Redis is handled.
    store: timedStore(redisStore({ client, prefix: `soak-${process.pid}`, commandTimeoutMs: 2_000 })),
    storeTimeoutMs: 2_000,
    onDecision: (event) => {
      if (event.storeError) storeErrors++;
      if (event.allowed) admittedAt.push(performance.now() - start);
      else refused++;
    },
  },
});
console.log(`READY ${server.url}`);

const heap = () => {
  globalThis.gc?.();
  return process.memoryUsage().heapUsed;
};
const loop = monitorEventLoopDelay({ resolution: 10 });
let heapAfterWarmUp = 0;
const commands = createInterface({ input: process.stdin });
for await (const command of commands) {
  if (command === 'warm') {
    heapAfterWarmUp = heap();
    loop.enable();
  }
  if (command === 'stop') break;
}
loop.disable();
commands.close();
const heapAtEnd = heap();
await server.close();
const clocksAtEnd = await readClocks();
client.disconnect();
const report: ServerReport = {
  admittedAt,
  firstAdmittedAskedAt,
  storeClockRate: (clocksAtEnd.redis - clocksAtStart.redis) / (clocksAtEnd.local - clocksAtStart.local),
  refused,
  storeErrors,
  heapAfterWarmUp,
  heapAtEnd,
  maxStallMs: loop.max / 1e6,
};
console.log(JSON.stringify(report));
