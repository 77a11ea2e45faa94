/**
 * The floor of S4's interceptor row: what an undici interceptor that paces must do at the least —
 * compute the key, look it up in a map, read each answer's rate-limit headers — measured against
 * raw `undici.request` and `headwayInterceptor()` in the same run. 32 GETs in flight against the
 * reference server (in process, never limiting), each client alternated A B … B A, reporting
 * requests/s and this process's CPU µs per request (client and server together), which other
 * processes on a shared machine disturb less than wall time. Not part of `npm run bench`; run it
 * alone:
 *
 * ```sh
 * npx tsup && TSX_TSCONFIG_PATH=bench/tsconfig.json node --import tsx bench/interceptor-floor.ts [--requests 10000] [--reps 6]
 * ```
 */
import { parseArgs } from 'node:util';
import { startServer } from 'headway/server';
import { headwayInterceptor } from 'headway/undici';
import { Agent, type Dispatcher, request } from 'undici';
import { floorInterceptor } from './lib/floor-interceptor.js';

const { values } = parseArgs({
  options: { requests: { type: 'string', default: '10000' }, reps: { type: 'string', default: '6' } },
});
const requests = Number(values.requests);
const reps = Number(values.reps);

const clients: Record<string, () => Dispatcher> = {
  'undici request': () => new Agent(),
  'floor interceptor': () => new Agent().compose(floorInterceptor),
  'headwayInterceptor()': () => new Agent().compose(headwayInterceptor()),
};

async function once(make: () => Dispatcher): Promise<{ rps: number; cpuUs: number }> {
  const server = await startServer({ port: 0, rate: 1e9, burst: 1e9 });
  const url = `${server.url}/items`;
  const dispatcher = make();
  for (let i = 0; i < 200; i++) await (await request(url, { dispatcher })).body.arrayBuffer();
  let started = 0;
  const worker = async () => {
    while (started < requests) {
      started++;
      await (await request(url, { dispatcher })).body.arrayBuffer();
    }
  };
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(Array.from({ length: 32 }, worker));
  const wallMs = performance.now() - t0;
  const used = process.cpuUsage(cpu);
  await dispatcher.close();
  await server.close();
  return { rps: (requests * 1000) / wallMs, cpuUs: (used.user + used.system) / requests };
}

const names = Object.keys(clients);
const runs = new Map(names.map((name) => [name, { rps: [] as number[], cpuUs: [] as number[] }]));
for (let rep = 0; rep < reps; rep++) {
  for (const name of rep % 2 === 0 ? names : [...names].reverse()) {
    const r = await once(clients[name] as () => Dispatcher);
    runs.get(name)?.rps.push(r.rps);
    runs.get(name)?.cpuUs.push(r.cpuUs);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const raw = runs.get('undici request') as { rps: number[]; cpuUs: number[] };
for (const [name, r] of runs) {
  process.stdout.write(
    `${name.padEnd(22)} ${Math.round(median(r.rps))} req/s (${(median(r.rps) / median(raw.rps)).toFixed(3)}× raw), ` +
      `${median(r.cpuUs).toFixed(1)} CPU µs/request (+${(median(r.cpuUs) - median(raw.cpuUs)).toFixed(1)}; raw ÷ this ${(median(raw.cpuUs) / median(r.cpuUs)).toFixed(3)})\n`,
  );
}
