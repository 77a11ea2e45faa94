import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { algorithms } from '../../src/core/algorithms/index.js';
import type { AlgorithmState } from '../../src/core/algorithms/types.js';
import type { Clock } from '../../src/core/clock.js';
import { InvalidCostError } from '../../src/errors.js';
import { memoryStore } from '../../src/stores/memory.js';
import type { AlgorithmName } from '../../src/stores/store.js';

const names = Object.keys(algorithms) as AlgorithmName[];

/**
 * The memory store decides in place on its slabs (token bucket, GCRA, fixed window) and moves keys between
 * generations; this checks it against the pure `take` over a state kept by hand, on a tiny store
 * (maxKeys 4: keys rotate through both generations constantly), across algorithm switches on one
 * key and invalid costs (which must change nothing). A key among the last two distinct keys used
 * must have survived; an older one may have been evicted, and then answers as a fresh key.
 */
describe('memory store: the same decisions as the pure algorithms', () => {
  it('matches take() step by step through generation moves, algorithm switches and invalid costs', () => {
    const step = fc.record({
      gap: fc.integer({ min: 0, max: 400 }),
      key: fc.constantFrom('a', 'b', 'c', 'd', 'e'),
      algorithm: fc.constantFrom(...names),
      cost: fc.oneof(fc.integer({ min: 1, max: 6 }), fc.constant(0), fc.constant(99)),
    });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        let now = 5_000;
        const clock: Clock = { now: () => now, wallNow: () => now, sleep: async () => undefined };
        const store = memoryStore({ clock, maxKeys: 4 });
        const recent: string[] = [];
        // What the store should hold: the pure state per key, forgotten when the store forgets it.
        const held = new Map<string, AlgorithmState>();
        for (const s of steps) {
          now += s.gap;
          const limit = { algorithm: s.algorithm, limit: 5, windowMs: 1000 };
          if (s.cost < 1 || s.cost > 5) {
            expect(() => store.takeNow!(s.key, limit, s.cost)).toThrow(InvalidCostError);
            continue;
          }
          const got = store.takeNow!(s.key, limit, s.cost);
          const fromHeld = algorithms[s.algorithm].take(held.get(s.key), limit, now, s.cost);
          const fromFresh = algorithms[s.algorithm].take(undefined, limit, now, s.cost);
          if (recent.includes(s.key) || JSON.stringify(got) === JSON.stringify(fromHeld.decision)) {
            expect(got).toEqual(fromHeld.decision);
            held.set(s.key, fromHeld.state);
          } else {
            expect(got).toEqual(fromFresh.decision);
            held.set(s.key, fromFresh.state);
          }
          const at = recent.indexOf(s.key);
          if (at >= 0) recent.splice(at, 1);
          recent.unshift(s.key);
          recent.length = Math.min(recent.length, 2);
        }
      }),
      { numRuns: 300 },
    );
  });
});
