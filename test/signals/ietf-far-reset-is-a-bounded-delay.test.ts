/**
 * "The longest delay a hint is read as: 2³¹ seconds … A longer hint is capped to it, never
 * dropped" (`LONGEST_DELAY_MS`, `src/signals/clock-skew.ts`), so that `retryAfterMs` is a wait the
 * rest of Headway can hold and `resetAtMs` a time a `Date` can represent
 * (`test/signals/huge-reset-is-a-bounded-delay.test.ts` checks it for `X-RateLimit-Reset`, Go
 * durations and HTTP-dates). The IETF `t` parameter is an Integer of up to 15 digits (RFC 9651):
 * `t=999999999999999` passes the strict grammar, and is read as 10¹⁸ ms, uncapped.
 */
import { describe, expect, it } from 'vitest';
import { LONGEST_DELAY_MS } from '../../src/signals/clock-skew.js';
import { read } from './helpers.js';

/** Largest ms a `Date` can hold (ECMA-262 §21.4.1.1). */
const LAST_DATE_MS = 8.64e15;

const FAR = {
  'ratelimit-policy': '"default";q=100;w=60',
  ratelimit: '"default";r=0;t=999999999999999',
};

describe('an IETF `t` far in the future is a bounded delay', () => {
  it('a 429 with r=0;t=999999999999999: retryAfterMs at most 2³¹ s', () => {
    const signal = read(429, FAR);
    expect(signal.retryAfterMs).toBeLessThanOrEqual(LONGEST_DELAY_MS);
  });

  it('resetInMs at most 2³¹ s, and resetAtMs a time a Date can hold', () => {
    const signal = read(200, FAR);
    expect(signal.resetInMs).toBeLessThanOrEqual(LONGEST_DELAY_MS);
    expect(Math.abs(signal.resetAtMs!)).toBeLessThanOrEqual(LAST_DATE_MS);
    expect(Number.isNaN(new Date(signal.resetAtMs!).getTime())).toBe(false);
  });
});
