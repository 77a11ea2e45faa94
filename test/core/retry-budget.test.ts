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
    let state = newRetryBudget(defaultRetryBudget, 0);
    expect(retriesLeft(state, defaultRetryBudget, 0)).toBe(100);
    let allowed = 0;
    for (let i = 0; i < 150; i++) {
      const r = withdrawRetry(state, defaultRetryBudget, 0);
      state = r.state;
      if (r.allowed) allowed++;
    }
    expect(allowed).toBe(100);
    expect(withdrawRetry(state, defaultRetryBudget, 99).allowed).toBe(false);
    expect(withdrawRetry(state, defaultRetryBudget, 100).allowed).toBe(true);
  });

  it('earns 20 % of each request and never banks more than the reserve', () => {
    const opts = { ratio: 0.2, minPerSecond: 0, ttlMs: 10_000 };
    let state = { balance: 0, updatedAt: 0 };
    for (let i = 0; i < 10; i++) state = depositRequest(state, opts, 0);
    expect(retriesLeft(state, opts, 0)).toBe(1);
    for (let i = 0; i < 1000; i++) state = depositRequest(state, opts, 0);
    expect(state.balance).toBe(budgetReserve(opts));
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
        let state = newRetryBudget(opts, 0);
        let now = 0;
        const log: Array<{ at: number; retry: boolean }> = [];
        for (const [dt, wantsRetry] of events) {
          now += dt;
          if (wantsRetry) {
            const r = withdrawRetry(state, opts, now);
            state = r.state;
            if (r.allowed) log.push({ at: now, retry: true });
          } else {
            state = depositRequest(state, opts, now);
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
