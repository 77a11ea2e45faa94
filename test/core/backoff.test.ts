import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultBackoff, exponentialCeiling, fullJitter, validateBackoff } from '../../src/core/backoff.js';
import { InvalidOptionError } from '../../src/errors.js';

const options = { baseMs: 100, capMs: 1000 };

describe('backoff', () => {
  it.each([
    [0, 100],
    [1, 200],
    [2, 400],
    [3, 800],
    [4, 1000],
    [50, 1000],
  ])('exponential ceiling of attempt %i is %i ms', (attempt, ceiling) => {
    expect(exponentialCeiling(attempt, options)).toBe(ceiling);
  });

  it.each([
    [0, 0, 0],
    [0, 0.5, 50],
    [2, 0.5, 200],
    [2, 0.999, 399],
    [9, 0.25, 250],
  ])('full jitter: attempt %i, random %f → %i ms', (attempt, random, delay) => {
    expect(fullJitter(attempt, options, () => random)).toBe(delay);
  });

  it('property: full jitter stays within [0, cap]', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 200 }),
        fc.double({ min: 0, max: 0.9999999, noNaN: true }),
        fc.integer({ min: 1, max: 10_000 }),
        fc.integer({ min: 0, max: 100_000 }),
        (attempt, random, baseMs, capMs) => {
          const opts = { baseMs, capMs };
          const full = fullJitter(attempt, opts, () => random);
          expect(full).toBeGreaterThanOrEqual(0);
          expect(full).toBeLessThanOrEqual(capMs);
        },
      ),
    );
  });

  it('validates with the one message shape', () => {
    expect(validateBackoff(defaultBackoff)).toEqual(defaultBackoff);
    expect(() => validateBackoff({ baseMs: -1, capMs: 10 })).toThrow(
      new InvalidOptionError(
        'backoff.baseMs',
        'Expected `backoff.baseMs` to be a positive finite number, got `-1` (number)',
      ),
    );
  });
});
