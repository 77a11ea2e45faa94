import { describe, expect, it } from 'vitest';
import { gcra } from '../../src/core/algorithms/gcra.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { memoryStore } from '../../src/stores/memory.js';

/**
 * `src/core/algorithms/gcra.ts`: allowed iff `newTat − now ≤ windowMs` with burst tolerance
 * `windowMs`, so a fresh key takes a full burst of `limit` (the shared property suite checks it at
 * `now = 4000`); `remaining` is what is left; README: `cost` may be up to the limit. The check
 * allows a slack of an absolute 1e-9 ms, but `tat` and `now` are clock readings (the server's clock
 * is `performance.now()`, the process's uptime in ms): past about 10⁶ ms (17 minutes of uptime)
 * the rounding of `tat = now + T + T + …` is larger than that slack, and the last unit of a burst
 * is refused — while the decision still says one is left. Likewise `(windowMs / limit) · limit`
 * rounds above a window of a day, and a fresh key refuses a cost of exactly `limit`.
 */
describe('GCRA on a clock that has been running a while', () => {
  it('admits a full burst of `limit` on a fresh key at 10,000,000 ms (2¾ h of uptime)', async () => {
    const store = memoryStore({ clock: new ManualClock(10_000_000) });
    const limit = { algorithm: 'gcra' as const, limit: 3, windowMs: 1000 };
    const decisions = [1, 2, 3].map(() => store.takeNow!('k', limit, 1));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true]);
  });

  it('never refuses while saying a unit is left (27 per second at 1,000,000 ms)', async () => {
    const store = memoryStore({ clock: new ManualClock(1_000_000) });
    const limit = { algorithm: 'gcra' as const, limit: 27, windowMs: 1000 };
    let last = store.takeNow!('k', limit, 1);
    for (let i = 1; i < 27 && last.allowed; i++) last = store.takeNow!('k', limit, 1);
    expect(last).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('admits a cost of exactly `limit` on a fresh key (293 per day)', () => {
    const limit = { algorithm: 'gcra' as const, limit: 293, windowMs: 86_400_000 };
    const { decision } = gcra.take(undefined, limit, 0, 293);
    expect(decision).toMatchObject({ allowed: true, remaining: 0 });
  });
});
