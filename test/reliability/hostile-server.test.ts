/**
 * A server that sends absurd rate-limit headers cannot make the client throw, wait past
 * `maxRetryAfterMs`, overflow a timer, hang or report NaN. Each case answers a 429 (and, in the
 * second table, a 200) with hostile headers, then 200s; on the manual clock, every call settles
 * with a Response or a documented error within `maxRetryAfterMs` of client time.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { HeadwayError } from '../../src/errors.js';
import { fakeFetch, runUntilSettled } from '../client/fake-server.js';

const MAX_RETRY_AFTER_MS = 60_000;
const TEN_YEARS_MS = 10 * 365 * 86_400_000;

/** Hostile header sets; `date` (ms from the test clock's wall time) sets the response's `Date`. */
const cases: Record<string, (wallNow: number) => Record<string, string>> = {
  'Retry-After: 999999999': () => ({ 'retry-after': '999999999' }),
  'Retry-After: 1e308': () => ({ 'retry-after': '1e308' }),
  'Retry-After: -5': () => ({ 'retry-after': '-5' }),
  'Retry-After: NaN': () => ({ 'retry-after': 'NaN' }),
  'Retry-After: 10 KB of digits': () => ({ 'retry-after': '9'.repeat(10_240) }),
  'Retry-After with control characters': () => ({ 'retry-after': '1\u0001\u007f2' }),
  'Retry-After: a date before 1970': () => ({ 'retry-after': 'Thu, 01 Jan 1960 00:00:00 GMT' }),
  'Retry-After: a date after 9999': () => ({ 'retry-after': 'Fri, 31 Dec 10999 23:59:59 GMT' }),
  'retry-after-ms: 1e308': () => ({ 'retry-after-ms': '1e308' }),
  'retry-after-ms: -1': () => ({ 'retry-after-ms': '-1' }),
  'Date ten years ahead, Retry-After as a date': (wall) => ({
    date: new Date(wall + TEN_YEARS_MS).toUTCString(),
    'retry-after': new Date(wall + TEN_YEARS_MS + 2_000).toUTCString(),
  }),
  'Date ten years behind, Retry-After as a date': (wall) => ({
    date: new Date(wall - TEN_YEARS_MS).toUTCString(),
    'retry-after': new Date(wall - TEN_YEARS_MS + 2_000).toUTCString(),
  }),
  'x-ratelimit-reset: 1e20': () => ({
    'x-ratelimit-limit': '10',
    'x-ratelimit-remaining': '0',
    'x-ratelimit-reset': '1e20',
  }),
  'x-ratelimit-reset: -1': () => ({
    'x-ratelimit-limit': '10',
    'x-ratelimit-remaining': '0',
    'x-ratelimit-reset': '-1',
  }),
  'x-ratelimit-limit: 0, remaining -3': () => ({
    'x-ratelimit-limit': '0',
    'x-ratelimit-remaining': '-3',
    'x-ratelimit-reset': '5',
  }),
  'RateLimit: t=1e308': () => ({
    ratelimit: '"default";r=0;t=1e308',
    'ratelimit-policy': '"default";q=10;w=1',
  }),
  'RateLimit with a 10 KB policy name': () => ({ ratelimit: `"${'p'.repeat(10_240)}";r=0;t=2` }),
  'contradicting dialects': () => ({
    ratelimit: '"default";r=0;t=30',
    'x-ratelimit-remaining': '1000',
    'x-ratelimit-limit': '1000',
    'x-ratelimit-reset': '99999999999',
    'retry-after': '1',
  }),
};

/** Every number in `value`, recursively, with its path. */
function numbersIn(value: unknown, path = 'stats'): [string, number][] {
  if (typeof value === 'number') return [[path, value]];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => numbersIn(v, `${path}.${k}`));
}

async function run(status: number, headers: (wall: number) => Record<string, string>) {
  const clock = new ManualClock();
  const server = fakeFetch(clock, (_, i) =>
    i === 0 ? { status, headers: headers(clock.wallNow()) } : { status: 200 },
  );
  const fetch = createFetch({ fetch: server.fetch, clock, maxRetryAfterMs: MAX_RETRY_AFTER_MS });
  const waits: number[] = [];
  fetch.onThrottle((e) => waits.push(e.waitMs));
  fetch.onRetry((e) => waits.push(e.delayMs));
  const started = clock.now();
  const calls = [fetch('http://127.0.0.1:9/a'), fetch('http://127.0.0.1:9/b'), fetch('http://127.0.0.1:9/c')];
  const results = await runUntilSettled(clock, calls, 100, 10 * MAX_RETRY_AFTER_MS);
  return { results, waits, elapsed: clock.now() - started, stats: fetch.stats() };
}

describe.each([429, 200])('hostile headers on a %d', (status) => {
  it.each(Object.keys(cases))('%s', async (name) => {
    const { results, waits, elapsed, stats } = await run(status, cases[name]!);
    for (const result of results) {
      if (result.status === 'fulfilled') expect(result.value).toBeInstanceOf(Response);
      else expect(result.reason).toBeInstanceOf(HeadwayError);
    }
    for (const ms of waits) {
      expect(Number.isFinite(ms)).toBe(true);
      expect(ms).toBeGreaterThanOrEqual(0);
      expect(ms).toBeLessThanOrEqual(MAX_RETRY_AFTER_MS);
    }
    // Settled within the longest acceptable wait (plus the runner's 100 ms steps).
    expect(elapsed).toBeLessThanOrEqual(MAX_RETRY_AFTER_MS + 1_000);
    for (const [path, value] of numbersIn(stats)) expect(Number.isNaN(value), path).toBe(false);
  });
});

describe('many keys', () => {
  it('100,000 distinct keys in one process keep at most 10,000 lanes', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, () => ({
      status: 200,
      headers: { 'x-ratelimit-limit': '5', 'x-ratelimit-remaining': '4', 'x-ratelimit-reset': '1' },
    }));
    const fetch = createFetch({ fetch: server.fetch, clock });
    for (let i = 0; i < 100_000; i += 1000)
      await Promise.all(Array.from({ length: 1000 }, (_, j) => fetch(`http://host-${i + j}.example:9/`)));
    expect(server.seen).toHaveLength(100_000);
    expect(fetch.stats().length).toBeLessThanOrEqual(10_000);
  }, 60_000);
});
