import { describe, expect, it } from 'vitest';
import type { HeaderRecord } from '../../src/index.js';
import { MAX_FIELD_LENGTH } from '../../src/signals/fields.js';
import { epochSeconds, read } from './helpers.js';

describe('rule 3: joined Retry-After: every member valid, the largest wins', () => {
  it.each([
    ['5, 10', 10_000],
    ['10, 5', 10_000],
    ['5,10', 10_000],
    ['1.5, 1', 1_500],
    ['Wed, 01 Jan 2025 00:01:00 GMT', 60_000], // one IMF-fixdate: its comma is not a separator
    ['Wed, 01 Jan 2025 00:01:00 GMT, 120', 120_000],
    ['30, Wed, 01 Jan 2025 00:01:00 GMT', 60_000],
    ['Wed, 01 Jan 2025 00:01:00 GMT, Wed, 01 Jan 2025 00:02:00 GMT', 120_000],
    ['Wednesday, 01-Jan-25 00:01:00 GMT, 5', 60_000],
    ['Wed Jan  1 00:01:00 2025, 5', 60_000],
    ['5, soon', null],
    ['5,', null],
    [', 5', null],
    ['5, , 6', null],
    ['5, -1', null],
    ['Wed, 5', null],
    ['Wed,01 Jan 2025 00:01:00 GMT', null],
  ])('Retry-After %j → %s', (value, ms) => {
    expect(read(429, { 'Retry-After': value }).retryAfterMs).toBe(ms);
  });

  it.each([
    ['record array', { 'retry-after': ['5', '10'] }],
    ['two spellings in a record', { 'Retry-After': '5', 'retry-after': '10' }],
    [
      'Headers.append',
      headers([
        ['Retry-After', '5'],
        ['retry-after', '10'],
      ]),
    ],
  ] as const)('field lines are joined with ", " first: %s', (_what, source) => {
    expect(read(429, source).retryAfterMs).toBe(10_000);
  });

  it('a line too long voids the joined field, whichever spelling comes first', () => {
    const long = `5${' x'.repeat(MAX_FIELD_LENGTH / 2)}`;
    expect(read(429, { 'Retry-After': long, 'retry-after': '10' }).retryAfterMs).toBeNull();
    expect(read(429, { 'retry-after': '10', 'Retry-After': long }).retryAfterMs).toBeNull();
  });
});

function headers(lines: readonly (readonly [string, string])[]): Headers {
  const h = new Headers();
  for (const [name, value] of lines) h.append(name, value);
  return h;
}

describe('rule 3: joined legacy counters: smallest remaining and limit, largest reset', () => {
  it.each<
    [string, HeaderRecord, { limit?: number | null; remaining?: number | null; resetInMs?: number | null }]
  >([
    ['limit', { 'x-ratelimit-limit': '100, 60' }, { limit: 60 }],
    ['remaining', { 'x-ratelimit-remaining': '10, 3, 7' }, { remaining: 3 }],
    ['reset (delta)', { 'x-ratelimit-reset': '30, 60' }, { resetInMs: 60_000 }],
    ['reset (epoch and delta)', { 'x-ratelimit-reset': `${epochSeconds(10)}, 20` }, { resetInMs: 20_000 }],
    [
      'reset (two HTTP-dates)',
      { 'x-ratelimit-reset': 'Wed, 01 Jan 2025 00:01:00 GMT, Wed, 01 Jan 2025 00:00:30 GMT' },
      { resetInMs: 60_000 },
    ],
    [
      'an invalid member voids the field',
      { 'x-ratelimit-remaining': '5, x', 'x-ratelimit-limit': '9' },
      { remaining: null, limit: 9 },
    ],
    ['record arrays', { 'x-ratelimit-remaining': ['10', '3'] }, { remaining: 3 }],
    // Fields outside the slots of the six read on every answer are filed by name: joined the same way.
    [
      'two spellings in a record',
      { 'x-ratelimit-remaining': '3', 'X-RateLimit-Remaining': '10' },
      { remaining: 3 },
    ],
    [
      'X-RateLimit and X-Rate-Limit are one family',
      { 'x-ratelimit-remaining': '10', 'x-rate-limit-remaining': '4' },
      { remaining: 4 },
    ],
    [
      'draft-6 fields too',
      { 'ratelimit-limit': '10, 20', 'ratelimit-remaining': '5, 9', 'ratelimit-reset': '1, 2' },
      { limit: 10, remaining: 5, resetInMs: 2_000 },
    ],
  ])('%s', (_what, source, expected) => {
    expect(read(200, source)).toMatchObject(expected);
  });
});
