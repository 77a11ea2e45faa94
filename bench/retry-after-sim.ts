/**
 * The Retry-After-only job on explicit times: an unconfigured `createFetch()` (the whole engine,
 * pacer and no-counters model) against the reference limiter (token bucket 200/s, burst 20,
 * dialect `none`) or a proxy-like sliding log of 200 per second that counts refusals, both on the
 * manual clock: 1,000 GETs from 16 callers (or, with `--at-once`, all 1,000 fired at once as in
 * S1b), each leg of a round trip 0.5 ms plus up to `jitter` ms, and one leg in `stall-every` up
 * to 15 ms longer; with `--connect-ms`, a request that finds no idle kept-alive connection opens
 * one and leaves that much later (a loopback connect on a busy machine: 25–30 ms). Prints wall ÷ minimum and the refusals per
 * seed. What it isolates is the model's own cost, without the CPU noise of real loopback HTTP.
 * Not part of `npm run bench` (no HTTP); run it alone (README, Limits):
 *
 * ```sh
 * node --import tsx bench/retry-after-sim.ts [--jitter 1] [--stall-every 7] [--seeds 8] [--proxy] [--at-once] [--startup-ms 10] [--connect-ms 25]
 * ```
 */
import { parseArgs } from 'node:util';
import { createFetch } from 'headway';
import { rateLimit } from 'headway/server';
import { ManualClock } from '../src/core/manual-clock.js';

const { values } = parseArgs({
  options: {
    jitter: { type: 'string', default: '1' },
    'stall-every': { type: 'string', default: '0' },
    seeds: { type: 'string', default: '8' },
    proxy: { type: 'boolean', default: false },
    'at-once': { type: 'boolean', default: false },
    'startup-ms': { type: 'string', default: '0' },
    'connect-ms': { type: 'string', default: '0' },
  },
});
const jitterMs = Number(values.jitter);
const stallEvery = Number(values['stall-every']);
const startupMs = Number(values['startup-ms']);
const connectMs = Number(values['connect-ms']);
const N = 1000;
/** (N − burst) / rate for the bucket; (⌈N / L⌉ − 1) × 1 s for the sliding log. */
const minimumMs = values.proxy ? 4000 : 4900;

async function run(seed0: number): Promise<{ ratio: number; refused: number }> {
  const clock = new ManualClock(10_000_000);
  const limiter = rateLimit({
    policy: { rate: 200, burst: 20 },
    algorithm: 'token-bucket',
    headers: 'none',
    clock,
  });
  let seed = seed0;
  const random = () => {
    seed = (seed * 16_807) % 2_147_483_647;
    return seed / 2_147_483_647;
  };
  const leg = () =>
    0.5 + random() * jitterMs + (stallEvery > 0 && random() < 1 / stallEvery ? random() * 15 : 0);
  const log: number[] = []; // the proxy's sliding log, refused requests too
  let refused = 0;
  let idle = 0; // kept-alive connections with no request on them
  const transport = async (input: RequestInfo | URL) => {
    // Nothing leaves while the process is still busy starting the batch (`--startup-ms`).
    const startup = Math.max(0, start + startupMs - clock.now());
    // HTTP/1.1 keep-alive: a request takes an idle connection, or opens one (`--connect-ms`).
    const connect = idle > 0 ? 0 : connectMs * (1 + random() * 0.2);
    if (idle > 0) idle--;
    await clock.sleep(startup + connect + leg());
    let status: number;
    let headers: Headers;
    if (values.proxy) {
      const now = clock.now();
      while (log.length > 0 && now - log[0]! >= 1000) log.shift();
      status = log.length < 200 ? 200 : 429;
      log.push(now);
      headers = new Headers(status === 429 ? { 'retry-after': '1' } : {});
    } else {
      const outcome = await limiter.check(
        { method: 'GET', url: String(input), headers: new Headers() },
        { ip: '1' },
      );
      status = outcome.status;
      headers = new Headers([...outcome.headers]);
    }
    if (status === 429) refused++;
    await clock.sleep(leg());
    idle++;
    return new Response(null, { status, headers });
  };
  const start = clock.now();
  const fetch = createFetch({ fetch: transport, clock, random });
  let next = 0;
  const caller = async () => {
    while (next < N) {
      next++;
      await fetch('http://api.test/items');
    }
  };
  let done = false;
  const calls = values['at-once']
    ? Array.from({ length: N }, () => fetch('http://api.test/items'))
    : Array.from({ length: 16 }, caller);
  const all = Promise.all(calls).then(() => {
    done = true;
  });
  while (!done && clock.now() - start < 60_000) await clock.advance(0.5);
  await all;
  return { ratio: (clock.now() - start) / minimumMs, refused };
}

const results: string[] = [];
for (let s = 1; s <= Number(values.seeds); s++) {
  const r = await run(s * 7919);
  results.push(`${r.ratio.toFixed(3)}× ${r.refused}×429`);
}
console.log(
  `${values.proxy ? 'counting proxy' : 'token bucket 200/s burst 20, none'}, ${values['at-once'] ? 'all at once' : '16 callers'}, jitter ${jitterMs} ms, start ${startupMs} ms, connect ${connectMs} ms, stall 1/${stallEvery || '∞'}: ${results.join(', ')}`,
);
