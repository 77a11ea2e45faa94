import { describe, expect, it } from 'vitest';
import { LearnedCosts } from '../../src/client/learned-costs.js';
import { Pacer } from '../../src/client/pacer.js';
import { verdictOf } from '../../src/client/verdict.js';
import { readRateLimit } from '../../src/signals/read-rate-limit.js';
import type { RateLimitPolicy } from '../../src/signals/signal.js';
import { pacerOptions } from './pacer-options.js';

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

/*
 * README (Token quotas): a learned cost is "what `remaining` lost plus the refill its reset states,
 * per call sent between them"; learned-costs.ts: a window of `limit` with `remaining` left and
 * `reset` ms to go gives `(limit − remaining) / reset` units back per ms *at most* — a bucket
 * refilling to full by the reset. It cannot give back more than it lacked: a key idle for longer
 * than the reset must not read the whole idle span's "refill" as units its next call counted.
 */
describe('learned cost: the refill between two readings is at most what the window lacked', () => {
  it('a reading after an idle span longer than the reset samples one call, not the idle refill', () => {
    const learned = new LearnedCosts();
    // One call of 1,000 tokens: 9,000 left, back to full in 6 s.
    learned.observe(tokens(9_000, 6_000), 1, 0);
    expect(learned.cost('tokens')).toBe(1_000);
    // Ten minutes idle (full again after 6 s), then one more call of 1,000 tokens: 9,000 left.
    learned.observe(tokens(9_000, 6_000), 2, 600_000);
    expect(learned.cost('tokens')).toBe(1_000);
  });

  it('a steady caller slower than the reset learns what its calls cost', () => {
    const learned = new LearnedCosts();
    // A call of 1,000 tokens every 10 s, each answered with 9,000 left (full again after 6 s).
    for (let mark = 1; mark <= 9; mark++) learned.observe(tokens(9_000, 6_000), mark, (mark - 1) * 10_000);
    expect(learned.cost('tokens')).toBe(1_000);
  });

  it('through the pacer: a key idle past the reset still books what a call costs', () => {
    const pacer = new Pacer(pacerOptions(), () => 0, 0);
    const answer = (now: number) => {
      const headers = {
        'x-ratelimit-limit-requests': '10000',
        'x-ratelimit-remaining-requests': '9999',
        'x-ratelimit-reset-requests': '6ms',
        'x-ratelimit-limit-tokens': '10000',
        'x-ratelimit-remaining-tokens': '9000',
        'x-ratelimit-reset-tokens': '6s',
      };
      const ticket = pacer.grant(1, false, 0, now);
      const signal = readRateLimit({ status: 200, headers }, { receivedAt: 0 });
      pacer.settle(ticket, verdictOf({ kind: 'response', status: 200, signal }), signal, now);
    };
    answer(0);
    answer(600_000);
    expect(pacer.snapshot(600_000).costs).toEqual({ tokens: 1_000 });
  });
});
