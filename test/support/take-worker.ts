/**
 * A child process for the concurrency test. Connects, prints `ready`, waits for a line on stdin
 * (the parent's "go", once every worker is ready), then for `durationMs` keeps `concurrency` takes
 * in flight on each of the given limits and prints one JSON line per limit:
 * `{ algorithm, takes, allowed, errors, firstNow, lastNow }` (Redis `TIME` of its first and last take).
 *
 * argv: url prefix key limit windowMs durationMs concurrency algorithm…
 */

import { Redis } from 'ioredis';
import { takeOnRedis } from '../../src/redis/algorithm-call.js';
import { Batcher } from '../../src/redis/batcher.js';
import type { AlgorithmName } from '../../src/stores/store.js';

const [url, prefix, key, limitText, windowText, durationText, concurrencyText, ...algorithms] =
  process.argv.slice(2);
const client = new Redis(url!, { enableOfflineQueue: false, lazyConnect: true });
await client.connect();
const target = { client, prefix: prefix!, commandTimeoutMs: 2000, batcher: new Batcher(client, 2000) };
process.stdout.write('ready\n');
await new Promise((resolve) => process.stdin.once('data', resolve));
process.stdin.pause();
const stopAt = Date.now() + Number(durationText);

const results = await Promise.all(
  (algorithms as AlgorithmName[]).map(async (algorithm) => {
    const limit = { algorithm, limit: Number(limitText), windowMs: Number(windowText) };
    const result = { algorithm, takes: 0, allowed: 0, errors: 0, firstNow: Infinity, lastNow: -Infinity };
    const loop = async () => {
      for (let i = 0; i < 1_000_000 && Date.now() < stopAt; i++) {
        try {
          const { decision, now } = await takeOnRedis(target, key!, limit, 1);
          result.takes++;
          if (decision.allowed) result.allowed++;
          result.firstNow = Math.min(result.firstNow, now);
          result.lastNow = Math.max(result.lastNow, now);
        } catch {
          result.errors++;
        }
      }
    };
    await Promise.all(Array.from({ length: Number(concurrencyText) }, loop));
    return result;
  }),
);
for (const result of results) process.stdout.write(`${JSON.stringify(result)}\n`);
client.disconnect();
