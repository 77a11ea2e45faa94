import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { memoryStore } from '../../src/stores/memory.js';
import type { AlgorithmName } from '../../src/stores/store.js';
import { bounds } from './bounds.js';

const scenario = fc.record({
  limit: fc.integer({ min: 1, max: 10 }),
  windowMs: fc.integer({ min: 1, max: 2000 }),
  steps: fc.array(
    fc.record({ gap: fc.integer({ min: 0, max: 300 }), cost: fc.integer({ min: 1, max: 10 }) }),
    {
      maxLength: 30,
    },
  ),
});

describe.each(Object.keys(bounds) as AlgorithmName[])(
  '%s through the memory store on the manual clock',
  (algorithm) => {
    it('keeps its bound, and a refused request retried after exactly retryAfterMs is admitted (1 ms earlier: refused)', async () => {
      await fc.assert(
        fc.asyncProperty(scenario, async ({ limit, windowMs, steps }) => {
          const clock = new ManualClock(1_000_000);
          const store = memoryStore({ clock });
          const storeLimit = { algorithm, limit, windowMs };
          const admitted: Array<[number, number]> = [];
          for (const step of steps) {
            await clock.advance(step.gap);
            const cost = Math.min(step.cost, limit);
            const decision = await store.take('k', storeLimit, cost);
            if (!decision.allowed) {
              await clock.advance(decision.retryAfterMs - 1);
              expect((await store.take('k', storeLimit, cost)).allowed).toBe(false);
              await clock.advance(1);
              expect((await store.take('k', storeLimit, cost)).allowed).toBe(true);
            }
            admitted.push([clock.now(), cost]);
          }
          for (let i = 0; i < admitted.length; i++) {
            let sum = 0;
            for (let j = i; j < admitted.length; j++) {
              sum += admitted[j]![1];
              expect(sum).toBeLessThanOrEqual(
                bounds[algorithm](storeLimit, admitted[j]![0] - admitted[i]![0]) + 1e-6,
              );
            }
          }
        }),
        { numRuns: 40 },
      );
    }, 30_000);
  },
);
