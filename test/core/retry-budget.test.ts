import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  budgetReserve,
  defaultRetryBudget,
  depositRequest,
  newRetryBudget,
  retriesLeft,
  validateRetryBudget,
  withdrawRetry,
} from '../../src/core/retry-budget.js';

describe('retry budget', () => {
  it('starts with the reserve (10/s × 10 s) and refuses once spent', () => {
    const state = newRetryBudget(defaultRetryBudget, 0);
    expect(retriesLeft(state, defaultRetryBudget, 0)).toBe(100);
    let allowed = 0;
    for (let i = 0; i < 150; i++) if (withdrawRetry(state, defaultRetryBudget, 0)) allowed++;
    expect(allowed).toBe(100);
    expect(withdrawRetry(state, defaultRetryBudget, 99)).toBe(false);
    expect(withdrawRetry(state, defaultRetryBudget, 100)).toBe(true);
  });

  it('earns 20 % of each request and never banks more than the reserve', () => {
    const opts = { ratio: 0.2, minPerSecond: 0, ttlMs: 10_000 };
    const state = { balance: 0, updatedAt: 0 };
    for (let i = 0; i < 10; i++) depositRequest(state, opts, 0);
    expect(retriesLeft(state, opts, 0)).toBe(1);
    for (let i = 0; i < 1000; i++) depositRequest(state, opts, 0);
    expect(state.balance).toBe(budgetReserve(opts));
  });

  it('a clock that steps back neither earns credit nor takes any', () => {
    const opts = { ratio: 0, minPerSecond: 10, ttlMs: 10_000 };
    const state = { balance: 5, updatedAt: 1000 };
    expect(retriesLeft(state, opts, 400)).toBe(5);
    expect(state).toEqual({ balance: 5, updatedAt: 1000 });
    expect(retriesLeft(state, opts, 1100)).toBe(6);
  });

  it('rejects a ratio above 1', () => {
    expect(() => validateRetryBudget({ ...defaultRetryBudget, ratio: 2 })).toThrow(
      'Expected `retryBudget.ratio` to be a number between 0 and 1, got `2` (number)',
    );
  });

  it('property: over any interval, retries ≤ reserve + ratio·requests + floor·t', () => {
    const optionsArb = fc.record({
      ratio: fc.double({ min: 0, max: 1, noNaN: true }),
      minPerSecond: fc.double({ min: 0, max: 50, noNaN: true }),
      ttlMs: fc.integer({ min: 100, max: 20_000 }),
    });
    const eventArb = fc.tuple(fc.integer({ min: 0, max: 300 }), fc.boolean());
    fc.assert(
      fc.property(optionsArb, fc.array(eventArb, { maxLength: 400 }), (opts, events) => {
        const state = newRetryBudget(opts, 0);
        let now = 0;
        const log: Array<{ at: number; retry: boolean }> = [];
        for (const [dt, wantsRetry] of events) {
          now += dt;
          if (wantsRetry) {
            if (withdrawRetry(state, opts, now)) log.push({ at: now, retry: true });
          } else {
            depositRequest(state, opts, now);
            log.push({ at: now, retry: false });
          }
        }
        for (let i = 0; i < log.length; i++) {
          let retries = 0;
          let requests = 0;
          for (let j = i; j < log.length; j++) {
            if (log[j]!.retry) retries++;
            else requests++;
            const t = (log[j]!.at - log[i]!.at) / 1000;
            const bound = budgetReserve(opts) + opts.ratio * requests + opts.minPerSecond * t;
            expect(retries).toBeLessThanOrEqual(bound + 1e-6);
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});
