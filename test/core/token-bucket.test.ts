import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tokenBucket } from '../../src/core/algorithms/token-bucket.js';
import type { BucketConfig } from '../../src/core/limit.js';
import { fullBucket, refill, reserve, take } from '../../src/core/token-bucket.js';
import { InvalidCostError, isHeadwayError } from '../../src/errors.js';

const config: BucketConfig = { burst: 10, rate: 5 };

const configArb = fc.record({
  burst: fc.integer({ min: 1, max: 200 }),
  rate: fc.double({ min: 0.01, max: 5000, noNaN: true }),
});

describe('token bucket', () => {
  it('starts full, takes, and refuses with the exact wait', () => {
    let state = fullBucket(config, 0);
    for (let i = 0; i < 10; i++) {
      const r = take(state, config, 0);
      expect(r.allowed).toBe(true);
      expect(r.remaining).toBe(9 - i);
      state = r.state;
    }
    const refused = take(state, config, 0);
    expect(refused).toMatchObject({ allowed: false, remaining: 0, retryAfterMs: 200, resetMs: 2000 });
    expect(take(state, config, 199).allowed).toBe(false);
    expect(take(state, config, 200).allowed).toBe(true);
  });

  it('refills lazily, keeps fractional tokens and clamps to the burst', () => {
    const empty = { tokens: 0, updatedAt: 0 };
    expect(refill(empty, config, 100).tokens).toBeCloseTo(0.5, 12);
    expect(refill(refill(empty, config, 100), config, 300).tokens).toBeCloseTo(1.5, 12);
    expect(refill(empty, config, 1_000_000).tokens).toBe(10);
  });

  it('never removes tokens when the clock steps back', () => {
    const state = { tokens: 4.25, updatedAt: 1000 };
    const stepped = refill(state, config, 500);
    expect(stepped.tokens).toBe(4.25);
    expect(stepped.updatedAt).toBe(1000);
    expect(take(state, config, 500).state.tokens).toBeCloseTo(3.25, 12);
  });

  it('takes a cost above 1 and refuses a cost above the burst with a typed error', () => {
    const r = take(fullBucket(config, 0), config, 0, 7);
    expect(r).toMatchObject({ allowed: true, remaining: 3 });
    expect(take(r.state, config, 0, 7)).toMatchObject({ allowed: false, retryAfterMs: 800 });
    let thrown: unknown;
    try {
      take(fullBucket(config, 0), config, 0, 11);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidCostError);
    expect(isHeadwayError(thrown) && thrown.code).toBe('HEADWAY_INVALID_COST');
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => take(fullBucket(config, 0), config, 0, bad)).toThrow(InvalidCostError);
    }
  });

  it('reserve books tokens ahead and returns queued waits', () => {
    let state = fullBucket(config, 0);
    const waits: number[] = [];
    for (let i = 0; i < 13; i++) {
      const r = reserve(state, config, 0);
      waits.push(r.waitMs);
      state = r.state;
    }
    expect(waits).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 200, 400, 600]);
  });

  it('property: over any interval t, admits at most burst + rate·t', () => {
    fc.assert(
      fc.property(
        configArb,
        fc.array(fc.tuple(fc.integer({ min: 0, max: 500 }), fc.integer({ min: 1, max: 3 })), {
          maxLength: 300,
        }),
        (cfg, steps) => {
          let state = fullBucket(cfg, 0);
          let now = 0;
          const admitted: Array<[number, number]> = [];
          for (const [dt, rawCost] of steps) {
            now += dt;
            const cost = Math.min(rawCost, cfg.burst);
            const r = take(state, cfg, now, cost);
            state = r.state;
            if (r.allowed) admitted.push([now, cost]);
          }
          for (let i = 0; i < admitted.length; i++) {
            let sum = 0;
            for (let j = i; j < admitted.length; j++) {
              sum += admitted[j]![1];
              const t = (admitted[j]![0] - admitted[i]![0]) / 1000;
              expect(sum).toBeLessThanOrEqual(cfg.burst + cfg.rate * t + 1e-6);
            }
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('property: the wait is exact — admitted at that instant, refused 1 ms earlier', () => {
    fc.assert(
      fc.property(
        configArb,
        fc.double({ min: -50, max: 200, noNaN: true }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 1, max: 5 }),
        (cfg, rawTokens, start, rawCost) => {
          const cost = Math.min(rawCost, cfg.burst);
          const state = { tokens: Math.min(rawTokens, cfg.burst), updatedAt: start };
          const { waitMs } = reserve(state, cfg, start, cost);
          const refused = take(state, cfg, start, cost);
          expect(refused.retryAfterMs).toBe(waitMs);
          expect(take(state, cfg, start + waitMs, cost).allowed).toBe(true);
          if (waitMs > 0) expect(take(state, cfg, start + waitMs - 1, cost).allowed).toBe(false);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('property: resetMs is exact — full at that instant, not 1 ms earlier, at any clock reading', () => {
    fc.assert(
      fc.property(
        configArb,
        fc.double({ min: 0, max: 200, noNaN: true }),
        fc.oneof(fc.integer({ min: 0, max: 10_000 }), fc.double({ min: 1e6, max: 1e10, noNaN: true })),
        fc.integer({ min: 1, max: 5 }),
        (cfg, rawTokens, start, rawCost) => {
          const cost = Math.min(rawCost, cfg.burst);
          const state = { tokens: Math.min(rawTokens, cfg.burst), updatedAt: start };
          const { resetMs, state: after } = take(state, cfg, start, cost);
          const full = (d: number) => refill(after, cfg, start + d).tokens >= cfg.burst - 1e-9;
          expect(full(resetMs)).toBe(true);
          if (resetMs > 0) expect(full(resetMs - 1)).toBe(false);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('property: retryAfterMs is exact at any clock reading — admitted then, refused 1 ms earlier', () => {
    fc.assert(
      fc.property(
        configArb,
        fc.double({ min: -50, max: 200, noNaN: true }),
        fc.oneof(
          fc.double({ min: 0, max: 1e5, noNaN: true }),
          fc.double({ min: 1e6, max: 1e10, noNaN: true }),
        ),
        fc.integer({ min: 1, max: 5 }),
        (cfg, rawTokens, start, rawCost) => {
          const cost = Math.min(rawCost, cfg.burst);
          const state = { tokens: Math.min(rawTokens, cfg.burst), updatedAt: start };
          const { retryAfterMs } = take(state, cfg, start, cost);
          expect(take(state, cfg, start + retryAfterMs, cost).allowed).toBe(true);
          if (retryAfterMs > 0) expect(take(state, cfg, start + retryAfterMs - 1, cost).allowed).toBe(false);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('waits are exact where the analytic estimate is a millisecond long (the slack admits 1 ms earlier)', () => {
    // (3 − 1.1789999997535412) / 0.0003 rounds up to 6071 ms, but 6070 ms already refill to
    // within the 1e-9 slack of 3 tokens: the search, not the estimate, gives the answer.
    const cfg: BucketConfig = { burst: 3, rate: 0.3 };
    const state = { tokens: 1.1789999997535412, updatedAt: 9032.579000000002 };
    const refused = take(state, cfg, state.updatedAt, 3);
    expect(refused).toMatchObject({ allowed: false, retryAfterMs: 6070, resetMs: 6070 });
    expect(take(state, cfg, state.updatedAt + 6070, 3).allowed).toBe(true);
    expect(take(state, cfg, state.updatedAt + 6069, 3).allowed).toBe(false);
  });

  it('the waits do not depend on the rate asked about before', () => {
    const slow: BucketConfig = { burst: 3, rate: 0.7 };
    const fast: BucketConfig = { burst: 1000, rate: 123_456.789 };
    const empty = { tokens: 0.1, updatedAt: 10 };
    const alone = take(empty, slow, 10);
    take(empty, fast, 10);
    const afterFast = take(empty, slow, 10);
    expect(afterFast).toEqual(alone);
    expect(alone).toMatchObject({ allowed: false, retryAfterMs: 1286, resetMs: 4143 });
    expect(take(empty, slow, 10 + 1286).allowed).toBe(true);
    expect(take(empty, slow, 10 + 1285).allowed).toBe(false);
  });

  it("property: in the stores' form ({ limit, windowMs }, per-ms math) waits are exact and reserve agrees with take", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200 }),
        fc.oneof(fc.integer({ min: 1, max: 120_000 }), fc.double({ min: 0.5, max: 1e7, noNaN: true })),
        fc.double({ min: 0, max: 200, noNaN: true }),
        fc.oneof(fc.integer({ min: 0, max: 10_000 }), fc.double({ min: 1e6, max: 1e10, noNaN: true })),
        fc.integer({ min: 1, max: 5 }),
        (limit, windowMs, rawTokens, start, rawCost) => {
          const store = { algorithm: 'token-bucket' as const, limit, windowMs };
          const cost = Math.min(rawCost, limit);
          const state = [Math.min(rawTokens, limit), start];
          const taken = tokenBucket.take(state, store, start, cost);
          const { waitMs } = tokenBucket.reserve!(state, store, start, cost);
          expect(taken.decision.retryAfterMs).toBe(waitMs);
          const at = (d: number) => tokenBucket.take(state, store, start + d, cost).decision.allowed;
          expect(at(waitMs)).toBe(true);
          if (waitMs > 0) expect(at(waitMs - 1)).toBe(false);
          const full = (d: number) => tokenBucket.take(taken.state, store, start + d, limit).decision.allowed;
          expect(full(taken.decision.resetMs)).toBe(true);
          if (taken.decision.resetMs > 0) expect(full(taken.decision.resetMs - 1)).toBe(false);
          // A clock stepped back adds nothing and removes only an admitted cost; time does not run back.
          const back = tokenBucket.take(taken.state, store, start - 5_000, cost);
          expect(back.state[1]).toBe(taken.state[1]);
          expect(back.state[0]).toBe(
            back.decision.allowed ? Math.max(0, taken.state[0]! - cost) : taken.state[0],
          );
        },
      ),
      { numRuns: 500 },
    );
  });
});
