/**
 * Headway's footprint per request over real HTTP, counted rather than timed: `n` GETs at 32 in
 * flight through raw `undici.request`, the floor interceptor (`lib/floor-interceptor.ts`) or
 * `headwayInterceptor()`, against the reference server in the same process (S4's setting). Run it
 * under cachegrind with its caches simulated — a 512 KB last level, like this CPU's L2 — and V8 on
 * one thread, and take the difference of two lengths per request: instructions, L1 instruction
 * misses, L1 data misses and last-level data misses. Not part of `npm run bench`; after `npx tsup`:
 *
 * ```sh
 * count() { TSX_TSCONFIG_PATH=bench/tsconfig.json valgrind --tool=cachegrind --cache-sim=yes \
 *   --LL=524288,8,64 --cachegrind-out-file=/dev/null node --single-threaded \
 *   --predictable-gc-schedule --import tsx bench/footprint.ts "$1" "$2" 2>&1 |
 *   awk '/I *refs|I1 *misses|D1 *misses|LLd misses/ { gsub(",", "", $4); printf "%s ", $4 } END { print "" }'; }
 * paste <(count headway 8000 | tr ' ' '\n') <(count headway 20000 | tr ' ' '\n') |
 *   awk 'NF { printf "%.0f ", ($2 - $1) / 12000 } END { print "" }'   # per request
 * ```
 *
 * 2026-12-05 (2 cores, AMD EPYC, Node 22.23.3), per request — instructions, I1, D1, LLd misses:
 * raw 325,430 / 10,810 / 6,309 / 1,893; floor +5,496 / +279 / +217 / +68; Headway +18,012 /
 * +1,288 / +570 / +421. Two runs agree within about 2,000 instructions per request.
 */
import { startServer } from 'headway/server';
import { headwayInterceptor } from 'headway/undici';
import { Agent, type Dispatcher, request } from 'undici';
import { floorInterceptor } from './lib/floor-interceptor.js';

const clients: Record<string, () => Dispatcher> = {
  raw: () => new Agent(),
  floor: () => new Agent().compose(floorInterceptor),
  headway: () => new Agent().compose(headwayInterceptor()),
};
const [which = '', count = ''] = process.argv.slice(2);
const make = clients[which];
const n = Number(count);
if (!make || !(Number.isInteger(n) && n > 0)) {
  throw new Error(`usage: footprint.ts ${Object.keys(clients).join('|')} <requests>`);
}

const server = await startServer({ port: 0, rate: 1e9, burst: 1e9 });
const dispatcher = make();
const url = `${server.url}/items`;
let started = 0;
const worker = async () => {
  while (started < n) {
    started++;
    await (await request(url, { dispatcher })).body.arrayBuffer();
  }
};
try {
  await Promise.all(Array.from({ length: 32 }, worker));
} finally {
  await dispatcher.close();
  await server.close();
}
