import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { algorithms } from '../../src/core/algorithms/index.js';
import type { AlgorithmState } from '../../src/core/algorithms/types.js';
import type { AlgorithmName } from '../../src/stores/store.js';
import { bounds } from './bounds.js';

const scenario = fc.record({
  limit: fc.integer({ min: 1, max: 20 }),
  windowMs: fc.integer({ min: 1, max: 3000 }),
  steps: fc.array(
    fc.record({ gap: fc.integer({ min: 0, max: 400 }), cost: fc.integer({ min: 1, max: 20 }) }),
    {
      maxLength: 80,
    },
  ),
});

describe.each(Object.keys(bounds) as AlgorithmName[])('%s (shared property suite)', (name) => {
  const algorithm = algorithms[name];

  it('admits no more than its documented bound over any interval', () => {
    fc.assert(
      fc.property(scenario, ({ limit, windowMs, steps }) => {
        const storeLimit = { algorithm: name, limit, windowMs };
        let state: AlgorithmState;
        let now = 1_000_000;
        const admitted: Array<[number, number]> = [];
        for (const step of steps) {
          now += step.gap;
          const cost = Math.min(step.cost, limit);
          const result = algorithm.take(state, storeLimit, now, cost);
          state = result.state;
          if (result.decision.allowed) admitted.push([now, cost]);
        }
        for (let i = 0; i < admitted.length; i++) {
          let sum = 0;
          for (let j = i; j < admitted.length; j++) {
            sum += admitted[j]![1];
            const t = admitted[j]![0] - admitted[i]![0];
            expect(sum).toBeLessThanOrEqual(bounds[name](storeLimit, t) + 1e-6);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('gives an exact retryAfterMs: admitted then, refused 1 ms earlier', () => {
    fc.assert(
      fc.property(scenario, ({ limit, windowMs, steps }) => {
        const storeLimit = { algorithm: name, limit, windowMs };
        let state: AlgorithmState;
        let now = 1_000_000;
        for (const step of steps) {
          now += step.gap;
          const cost = Math.min(step.cost, limit);
          const result = algorithm.take(state, storeLimit, now, cost);
          const { allowed, retryAfterMs, remaining, resetMs } = result.decision;
          expect(remaining).toBeGreaterThanOrEqual(0);
          expect(resetMs).toBeGreaterThanOrEqual(0);
          expect(Number.isInteger(retryAfterMs)).toBe(true);
          if (!allowed) {
            expect(retryAfterMs).toBeGreaterThan(0);
            const later = algorithm.take(state, storeLimit, now + retryAfterMs, cost);
            expect(later.decision.allowed).toBe(true);
            const earlier = algorithm.take(state, storeLimit, now + retryAfterMs - 1, cost);
            expect(earlier.decision.allowed).toBe(false);
          }
          state = result.state;
        }
      }),
      { numRuns: 300 },
    );
  });

  it('admits a full burst of `limit` on a fresh key, then refuses', () => {
    const storeLimit = { algorithm: name, limit: 5, windowMs: 1000 };
    let state: AlgorithmState;
    for (let i = 0; i < 5; i++) {
      const r = algorithm.take(state, storeLimit, 4000, 1);
      expect(r.decision).toMatchObject({ allowed: true, remaining: 4 - i, limit: 5 });
      state = r.state;
    }
    expect(algorithm.take(state, storeLimit, 4000, 1).decision.allowed).toBe(false);
  });
});

describe('fixed window boundary hole (documented, not hidden)', () => {
  it('admits 2 × limit within 1 ms across a window boundary', () => {
    const limit = { algorithm: 'fixed-window' as const, limit: 10, windowMs: 1000 };
    let state: AlgorithmState;
    let admitted = 0;
    for (const now of [999, 1000]) {
      for (let i = 0; i < 10; i++) {
        const r = algorithms['fixed-window'].take(state, limit, now, 1);
        state = r.state;
        if (r.decision.allowed) admitted++;
      }
    }
    expect(admitted).toBe(20);
  });

  it('is closed by the sliding log, which admits only limit in the same 1 ms', () => {
    const limit = { algorithm: 'sliding-log' as const, limit: 10, windowMs: 1000 };
    let state: AlgorithmState;
    let admitted = 0;
    for (const now of [999, 1000]) {
      for (let i = 0; i < 10; i++) {
        const r = algorithms['sliding-log'].take(state, limit, now, 1);
        state = r.state;
        if (r.decision.allowed) admitted++;
      }
    }
    expect(admitted).toBe(10);
  });
});

describe('reserve (bucket algorithms)', () => {
  it.each(['token-bucket', 'gcra'] as const)('%s books units and returns the exact wait', (name) => {
    const limit = { algorithm: name, limit: 2, windowMs: 1000 };
    const algorithm = algorithms[name];
    let state: AlgorithmState;
    const waits: number[] = [];
    for (let i = 0; i < 4; i++) {
      const r = algorithm.reserve!(state, limit, 0, 1);
      waits.push(r.waitMs);
      state = r.state;
    }
    expect(waits).toEqual([0, 0, 500, 1000]);
  });
});
