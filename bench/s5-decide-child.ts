/**
 * S5 decisions: run as `node --import tsx bench/s5-decide-child.ts <limiter> <keys> <limit> <ops>`;
 * prints `{ rate, allowed }` as JSON: decisions/s over `ops` decisions round-robin over `keys` keys
 * (after every key is taken once, which spends them in the deny regime, and a warm-up), and how many
 * of those were allowed. One process per measurement, so no limiter runs on a heap, timers or JIT
 * feedback another one left behind (rate-limiter-flexible keeps a timer per key for a minute).
 */
import { memoryLimiters } from './lib/limiters.js';

const [id, keysArg, limitArg, opsArg] = process.argv.slice(2);
const spec = memoryLimiters.find((l) => l.id === id);
if (!spec)
  throw new Error('usage: node --import tsx bench/s5-decide-child.ts <limiter> <keys> <limit> <ops>');
const count = Number(keysArg);
const ops = Number(opsArg);
const keys = Array.from({ length: count }, (_, i) => `client-${i}`);
const limiter = spec.make(Number(limitArg), count);

/** `ops` decisions round-robin over the keys; returns how many were allowed. */
async function decisions(n: number): Promise<number> {
  let allowed = 0;
  for (let i = 0; i < n; i++) {
    try {
      if (limiter.allowed(await limiter.decide(keys[i % count]!))) allowed++;
    } catch (refusal) {
      if (refusal instanceof Error) throw refusal; // a refusal is a result, an Error is a bug
    }
  }
  return allowed;
}

// Deny regime: spend every key first. Also warms the code up.
await decisions(count);
await decisions(Math.min(ops, 50_000));
const start = performance.now();
const allowed = await decisions(ops);
const elapsed = performance.now() - start;
limiter.close();
process.stdout.write(`${JSON.stringify({ rate: (ops * 1000) / elapsed, allowed })}\n`);
process.exit(0);
