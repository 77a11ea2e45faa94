/**
 * S4 in one process: run as
 * `node --import tsx bench/s4-child.ts <pairs> <n> <concurrency> <reps> <first rep>` (`<pairs>`:
 * indices in `s4Pairs`, joined by commas); prints every pair's halves and per-rep ratios as JSON
 * on its last line (see `measureS4` in s4-overhead.ts).
 */
import { measureS4, type Pair, s4Pairs } from './s4-overhead.js';

const usage = 'usage: node --import tsx bench/s4-child.ts <pairs> <n> <concurrency> <reps> <first rep>';
const [pairsArg = '', ...rest] = process.argv.slice(2);
const [n, concurrency, reps, firstRep] = rest.map(Number) as [number, number, number, number];
const pairs = pairsArg.split(',').map((i) => s4Pairs[Number(i)]);
if (pairs.some((pair) => pair === undefined) || !(n > 0 && concurrency > 0 && reps > 0 && firstRep >= 0))
  throw new Error(usage);
const runs = await measureS4({ n, concurrency, reps, pairs: pairs as Pair[] }, firstRep);
process.stdout.write(`${JSON.stringify(runs)}\n`);
process.exit(0);
