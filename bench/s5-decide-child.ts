/**
 * S5 decisions: run as `node --import tsx bench/s5-decide-child.ts <limiters> <keys> <limit> <ops> <rounds>`
 * (`<limiters>`: ids joined by commas); prints `{ results: [{ id, rates, allowed }] }` as JSON: each
 * limiter's decisions/s of every pass of `ops` decisions round-robin over `keys` keys, and how many
 * of each pass's decisions were allowed (-1 if the passes disagree).
 *
 * The limiters named share this process and take turns: after each is warmed up (every key taken
 * once, which spends them in the deny regime, then 50,000 decisions), `rounds` rounds each run one
 * pass of every limiter, the order rotated each round. A drift in the machine's load (other
 * processes on a shared machine) then falls on all of them alike, instead of on whichever ran in
 * the slower moment. Each limiter runs its own copy of the loop (compiled separately), so no call
 * site in it learns another limiter's types.
 */

import type { MemoryLimiter } from './lib/limiters.js';
import { memoryLimiters, memoryReferences } from './lib/limiters.js';
import { rotate } from './lib/stats.js';

const [idsArg, keysArg, limitArg, opsArg, roundsArg] = process.argv.slice(2);
const usage = 'usage: node --import tsx bench/s5-decide-child.ts <limiters> <keys> <limit> <ops> <rounds>';
const all = [...memoryLimiters, ...memoryReferences];
const specs = (idsArg ?? '').split(',').map((id) => {
  const spec = all.find((l) => l.id === id);
  if (!spec) throw new Error(`${usage} (unknown limiter ${id})`);
  return spec;
});
const count = Number(keysArg);
const ops = Number(opsArg);
const rounds = Number(roundsArg);
if (!(count > 0 && ops > 0 && rounds > 0)) throw new Error(usage);
const keys = Array.from({ length: count }, (_, i) => `client-${i}`);

/** `n` decisions round-robin over the keys; resolves to how many were allowed. */
type Decisions = (n: number) => Promise<number>;

/** The loop, as source: compiled once per limiter (see the module doc). */
const loopSource = `return async function decisions(n) {
  let allowed = 0;
  for (let i = 0; i < n; i++) {
    try {
      if (limiter.allowed(await limiter.decide(keys[i % count]))) allowed++;
    } catch (refusal) {
      if (refusal instanceof Error) throw refusal; // a refusal is a result, an Error is a bug
    }
  }
  return allowed;
};`;
const loopFor = (limiter: MemoryLimiter): Decisions =>
  new Function('limiter', 'keys', 'count', loopSource)(limiter, keys, count) as Decisions;

const runs = specs.map((spec) => {
  const limiter = spec.make(Number(limitArg), count);
  return {
    id: spec.id,
    limiter,
    decisions: loopFor(limiter),
    passes: [] as { rate: number; allowed: number }[],
  };
});
// Deny regime: spend every key first. Also warms the code up.
for (const run of runs) {
  await run.decisions(count);
  await run.decisions(Math.min(ops, 50_000));
}
for (let round = 0; round < rounds; round++)
  for (const run of rotate(runs, round)) {
    const start = performance.now();
    const allowed = await run.decisions(ops);
    run.passes.push({ rate: (ops * 1000) / (performance.now() - start), allowed });
  }
for (const run of runs) run.limiter.close();
const results = runs.map(({ id, passes }) => ({
  id,
  rates: passes.map((p) => p.rate),
  allowed: passes.every((p) => p.allowed === passes[0]!.allowed) ? passes[0]!.allowed : -1,
}));
process.stdout.write(`${JSON.stringify({ results })}\n`);
process.exit(0);
