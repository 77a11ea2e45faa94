import { describe, expect, it } from 'vitest';
import { LearnedCosts } from '../../src/client/learned-costs.js';
import type { RateLimitPolicy } from '../../src/signals/signal.js';

/** A token window of 10,000 that reports `remaining` and a reset. */
const tokens = (remaining: number, resetInMs: number | null = null): RateLimitPolicy => ({
  name: 'tokens',
  unit: 'tokens',
  quota: 10_000,
  windowMs: null,
  remaining,
  resetInMs,
  partitionKey: null,
});

describe('LearnedCosts', () => {
  it('knows nothing before a reading', () => {
    expect(new LearnedCosts().cost('tokens')).toBeNull();
  });

  it('the first reading: what the window counted, over the calls sent up to it', () => {
    const learned = new LearnedCosts();
    learned.observe(tokens(9_140), 2, 10);
    expect(learned.cost('tokens')).toBe(430);
  });

  it('between readings: what remaining lost, plus the refill the reset states, per call sent between', () => {
    const learned = new LearnedCosts();
    // 1,000 counted, back to full in 1,000 ms: 1 token per ms is given back.
    learned.observe(tokens(9_000, 1_000), 2, 0);
    // 100 ms later, 4 calls on: 9,000 − 7,380 + 100 = 1,720 counted, 430 each.
    learned.observe(tokens(7_380, 2_620), 6, 100);
    // Samples 500 and 430: the median of two is their mean.
    expect(learned.cost('tokens')).toBe(465);
    learned.observe(tokens(6_950, 3_050), 7, 100);
    expect(learned.cost('tokens')).toBe(430);
  });

  it('an answer that overtook a later one measures nothing forward', () => {
    const learned = new LearnedCosts();
    learned.observe(tokens(9_570), 1, 0);
    learned.observe(tokens(9_140), 2, 5);
    learned.observe(tokens(9_570), 1, 6); // older: ignored
    expect(learned.cost('tokens')).toBe(430);
  });

  it('the median ignores an outlier (a window boundary, another client)', () => {
    const learned = new LearnedCosts();
    let remaining = 10_000;
    for (let mark = 1; mark <= 5; mark++) {
      remaining -= mark === 3 ? 4_000 : 430;
      learned.observe(tokens(remaining), mark, mark);
    }
    expect(learned.cost('tokens')).toBe(430);
  });

  it('a settled cost is a sample of its own; a reading without remaining is none', () => {
    const learned = new LearnedCosts();
    learned.observe({ ...tokens(0), remaining: null }, 1, 0);
    expect(learned.cost('tokens')).toBeNull();
    learned.settle('tokens', 412);
    expect(learned.cost('tokens')).toBe(412);
    learned.settle('tokens', Number.NaN);
    expect(learned.cost('tokens')).toBe(412);
  });
});
