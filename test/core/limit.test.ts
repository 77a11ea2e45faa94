import { describe, expect, it } from 'vitest';
import { bucketOf, defaultBurst, ratePerSecond, windowOf } from '../../src/core/limit.js';

describe('one vocabulary for a limit', () => {
  it.each([
    // rate/s, burst → limit per windowMs
    [200, 20, 20, 100],
    [1, 60, 60, 60_000],
    [0.5, 1, 1, 2000],
    [1000, 1000, 1000, 1000],
  ])('%d/s with a burst of %d is %d per %d ms, and back', (rate, burst, limit, windowMs) => {
    expect(windowOf({ rate, burst })).toEqual({ limit, windowMs });
    expect(bucketOf(limit, windowMs)).toEqual({ rate, burst });
    expect(ratePerSecond(limit, windowMs)).toBe(rate);
  });

  it('a window read as a bucket: 60 per minute is a burst of 60 refilling 1 unit per second', () => {
    expect(bucketOf(60, 60_000)).toEqual({ rate: 1, burst: 60 });
  });

  it('the default burst is one second of the rate, at least one unit', () => {
    expect(defaultBurst(200)).toBe(200);
    expect(defaultBurst(0.25)).toBe(1);
  });
});
