/**
 * S4 in one process: run as `node --import tsx bench/s4-child.ts <pairs> <n> <concurrency> <reps>`
 * (`<pairs>`: indices in `s4Pairs`, joined by commas); prints every pair's halves and per-rep
 * ratios as JSON on its last line (see `measureS4` in s4-overhead.ts).
 */
import { measureS4, s4Pairs } from './s4-overhead.js';

const [pairsArg = '', ...rest] = process.argv.slice(2);
const [n, concurrency, reps] = rest.map(Number) as [number, number, number];
const pairs = pairsArg.split(',').map((i) => s4Pairs[Number(i)]);
if (pairs.some((pair) => pair === undefined) || !(n > 0 && concurrency > 0 && reps > 0))
  throw new Error('usage: node --import tsx bench/s4-child.ts <pairs> <n> <concurrency> <reps>');
const runs = await measureS4({ n, concurrency, reps, pairs: pairs as (typeof s4Pairs)[number][] });
process.stdout.write(`${JSON.stringify(runs)}\n`);
process.exit(0);
