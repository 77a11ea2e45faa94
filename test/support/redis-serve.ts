/**
 * A child process for the real-process clock steps: the reference server (what `headway serve`
 * runs, which has no Redis flag) on the Redis store at `REDIS_SERVE_URL`, one server per
 * algorithm of `--algorithms a,b,…`, failing closed. Takes `--rate`, `--burst` and `--window-ms`
 * like `headway serve`; prints `READY {"<algorithm>":"<url>",…}` and closes everything on SIGINT.
 */
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { algorithmNames } from '../../src/core/algorithms/names.js';
import { oneOf } from '../../src/core/validate.js';
import { redisStore } from '../../src/redis/index.js';
import { startServer } from '../../src/server/serve.js';

const { values } = parseArgs({
  options: Object.fromEntries(
    ['rate', 'burst', 'window-ms', 'algorithms'].map((name) => [name, { type: 'string' as const }]),
  ),
});
const algorithms = String(values.algorithms)
  .split(',')
  .map((name) => oneOf('--algorithms', name, algorithmNames));
const client = new Redis(process.env.REDIS_SERVE_URL!, { enableOfflineQueue: false, lazyConnect: true });
await client.connect();
const prefix = `clock-step-${process.pid}`;
const servers = await Promise.all(
  algorithms.map((algorithm) =>
    startServer({
      algorithm,
      rate: Number(values.rate),
      burst: Number(values.burst),
      windowMs: Number(values['window-ms']),
      headers: 'x-ratelimit',
      limiter: {
        // Generous timeouts: a loaded machine must not turn a slow answer into a 503 here.
        store: redisStore({ client, prefix: `${prefix}-${algorithm}`, commandTimeoutMs: 2_000 }),
        storeTimeoutMs: 2_000,
        onStoreError: 'closed',
      },
    }),
  ),
);
console.log(`READY ${JSON.stringify(Object.fromEntries(algorithms.map((a, i) => [a, servers[i]!.url])))}`);
process.once('SIGINT', async () => {
  await Promise.all(servers.map((server) => server.close()));
  client.disconnect();
});
