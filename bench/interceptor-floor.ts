/**
 * The floor of S4's interceptor row: what an undici interceptor that paces must do at the least —
 * compute the key, look it up in a map, read each answer's rate-limit headers — measured against
 * raw `undici.request` and `headwayInterceptor()` in the same process. One reference server (in
 * process, never limiting) for the whole run and one warm client of each kind; each round runs
 * `--requests` GETs at 32 in flight through every client, the order reversed every other round.
 * Reports, per client, the median over rounds of raw ÷ client in CPU µs per request (client and
 * server together: other processes on a shared machine disturb it less than wall time) and of
 * client ÷ raw in requests/s. With `--garbage`, one more row: the floor plus 1.8 KB of
 * short-lived objects per request (what Headway's engine allocates per call), which shows what
 * allocation volume alone costs. Not part of `npm run bench`; run it alone:
 *
 * ```sh
 * npx tsup && TSX_TSCONFIG_PATH=bench/tsconfig.json node --import tsx bench/interceptor-floor.ts [--requests 6000] [--rounds 40] [--garbage]
 * ```
 */
import { parseArgs } from 'node:util';
import { startServer } from 'headway/server';
import { headwayInterceptor } from 'headway/undici';
import { Agent, type Dispatcher, request } from 'undici';
import { floorInterceptor } from './lib/floor-interceptor.js';
import { median } from './lib/stats.js';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '6000' },
    rounds: { type: 'string', default: '40' },
    garbage: { type: 'boolean', default: false },
  },
});
const requests = Number(values.requests);
const rounds = Number(values.rounds);
if (!(Number.isInteger(requests) && requests > 0 && Number.isInteger(rounds) && rounds > 0))
  throw new Error('usage: interceptor-floor.ts [--requests N] [--rounds N] [--garbage]');

/** Where the garbage row's objects go, so that V8 cannot drop their allocation. */
let kept: unknown = null;

/** The floor interceptor, plus 20 objects of eight fields and their array (about 1.8 KB) per request. */
const floorWithGarbage: Dispatcher.DispatcherComposeInterceptor = (dispatch) => {
  const floor = floorInterceptor(dispatch);
  return (opts, handler) => {
    const objects: unknown[] = [];
    for (let i = 0; i < 20; i++) objects.push({ a: i, b: i + 1, c: null, d: opts, e: 1.5, f: i, g: 0, h: 0 });
    kept = objects;
    return floor(opts, handler);
  };
};

const clients: [string, Dispatcher][] = [
  ['undici request', new Agent()],
  ['floor interceptor', new Agent().compose(floorInterceptor)],
  ...(values.garbage
    ? [['floor + 1.8 KB garbage', new Agent().compose(floorWithGarbage)] as [string, Dispatcher]]
    : []),
  ['headwayInterceptor()', new Agent().compose(headwayInterceptor())],
];

const server = await startServer({ port: 0, rate: 1e9, burst: 1e9 });
const url = `${server.url}/items`;

/** `n` GETs at 32 in flight through `dispatcher`: requests/s and CPU µs per request. */
async function run(dispatcher: Dispatcher, n: number): Promise<{ rps: number; cpuUs: number }> {
  let started = 0;
  const worker = async () => {
    while (started < n) {
      started++;
      await (await request(url, { dispatcher })).body.arrayBuffer();
    }
  };
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(Array.from({ length: 32 }, worker));
  const wallMs = performance.now() - t0;
  const used = process.cpuUsage(cpu);
  return { rps: (n * 1000) / wallMs, cpuUs: (used.user + used.system) / n };
}

try {
  for (const [, dispatcher] of clients) await run(dispatcher, 3000); // warm: JIT, sockets, what it learns
  const ratios = new Map(clients.map(([name]) => [name, { cpu: [] as number[], rps: [] as number[] }]));
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? clients : [...clients].reverse();
    const results = new Map<string, { rps: number; cpuUs: number }>();
    for (const [name, dispatcher] of order) results.set(name, await run(dispatcher, requests));
    const raw = results.get('undici request')!;
    for (const [name, r] of results) {
      ratios.get(name)!.cpu.push(raw.cpuUs / r.cpuUs);
      ratios.get(name)!.rps.push(r.rps / raw.rps);
    }
  }
  for (const [name, r] of ratios) {
    process.stdout.write(
      `${name.padEnd(24)} CPU raw ÷ this ${median(r.cpu).toFixed(3)}, requests/s this ÷ raw ${median(r.rps).toFixed(3)}\n`,
    );
  }
} finally {
  for (const [, dispatcher] of clients) await dispatcher.close();
  await server.close();
}
void kept;
