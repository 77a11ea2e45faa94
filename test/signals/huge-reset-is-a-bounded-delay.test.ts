/**
 * A reset or a retry time far in the future is still a wait the rest of Headway can hold: capped
 * at the longest delay a hint is read as (2³¹ s, `LONGEST_DELAY_MS`, "a longer hint is capped to
 * it, never dropped"), so `resetAtMs` stays a time a `Date` can represent, and a call told to wait
 * that long fails with `RateLimitedError`, never with a `RangeError`.
 *
 * Every value here passes the strict grammar: a 20-digit number (rule 6 reads ≥ 10¹² as epoch ms),
 * a Go duration of whole hours, an IMF-fixdate in the year 9999.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { RateLimitedError } from '../../src/errors.js';
import { LONGEST_DELAY_MS } from '../../src/signals/clock-skew.js';
import { fakeFetch, runUntilSettled } from '../client/fake-server.js';
import { read } from './helpers.js';

/** Largest ms a `Date` can hold (ECMA-262 §21.4.1.1). */
const LAST_DATE_MS = 8.64e15;

const HUGE: readonly (readonly [what: string, headers: Record<string, string>])[] = [
  [
    'X-RateLimit-Reset of 20 digits (epoch ms, rule 6)',
    { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '99999999999999999999' },
  ],
  [
    'OpenAI reset as a Go duration of 2.5 billion hours',
    { 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '2500000000h' },
  ],
];

describe('a far reset read from a 429 is a bounded delay', () => {
  it.each(HUGE)('%s: retryAfterMs at most 2³¹ s, resetAtMs a time a Date can hold', (_what, headers) => {
    const signal = read(429, headers);
    expect(signal.retryAfterMs).toBeLessThanOrEqual(LONGEST_DELAY_MS);
    expect(Math.abs(signal.resetAtMs!)).toBeLessThanOrEqual(LAST_DATE_MS);
  });

  it('a Retry-After HTTP-date in the year 9999 is capped like delay-seconds', () => {
    const signal = read(503, { 'retry-after': 'Fri, 31 Dec 9999 23:59:59 GMT' });
    expect(signal.retryAfterMs).toBeLessThanOrEqual(LONGEST_DELAY_MS);
  });
});

describe('a call answered 429 with a far reset fails fast with RateLimitedError', () => {
  it.each(HUGE)('%s', async (_what, headers) => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, (_s, i) => (i === 0 ? { status: 429, headers } : { status: 200 }));
    const fetch = createFetch({ fetch: server.fetch, clock, random: () => 0 });
    const [result] = await runUntilSettled(clock, [fetch('http://127.0.0.1:9/a')], 10, 5_000);
    expect(result!.status).toBe('rejected');
    const reason = (result as PromiseRejectedResult).reason;
    expect(reason).toBeInstanceOf(RateLimitedError);
    expect(reason).toMatchObject({ code: 'HEADWAY_RATE_LIMITED' });
  });
});
