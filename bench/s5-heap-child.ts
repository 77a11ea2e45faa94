/**
 * S5 heap: run as `node --expose-gc --import tsx bench/s5-heap-child.ts <limiter> <keys>`; prints
 * `{ bytesPerKey }` as JSON (JS heap plus array buffers, which hold typed-array slabs). The key strings are built before the first heap reading, so the bytes
 * counted are the store's own (its entries, maps, timers), not the keys' text.
 */
import { memoryLimiters } from './lib/limiters.js';

const [id, keysArg] = process.argv.slice(2);
const spec = memoryLimiters.find((l) => l.id === id);
const gc = (globalThis as { gc?: () => void }).gc;
if (!spec || !gc)
  throw new Error('usage: node --expose-gc --import tsx bench/s5-heap-child.ts <limiter> <keys>');
const count = Number(keysArg ?? 1_000_000);
const keys = Array.from({ length: count }, (_, i) => `client-${i}`);
const limiter = spec.make(100, count);
await limiter.decide('warm-up');
const settle = () => {
  gc();
  gc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  // Typed-array slabs live outside the JS heap: count them too.
  return heapUsed + arrayBuffers;
};
const before = settle();
for (let i = 0; i < count; i++) await limiter.decide(keys[i]!);
const after = settle();
process.stdout.write(
  `${JSON.stringify({ id, keys: count, bytesPerKey: (after - before) / count, heapAndBuffers: after })}\n`,
);
if (keys.length === -1) console.log(limiter); // keep both alive until the reading
process.exit(0);
