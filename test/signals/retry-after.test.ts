import { describe, expect, it } from 'vitest';
import { parseRetryAfter, parseRetryAfterMs } from '../../src/signals/retry-after.js';
import { NOW, read } from './helpers.js';

describe('rule 1: Retry-After is delay-seconds, lenient decimal seconds or an HTTP-date', () => {
  it.each([
    // delay-seconds
    ['120', 120_000],
    ['0', 0],
    ['  120  ', 120_000],
    ['\t30\t', 30_000],
    ['007', 7_000],
    // lenient decimal seconds, rounded up to whole ms
    ['2.0', 2_000],
    ['1.5', 1_500],
    ['1.1', 1_100], // not 1101: 1.1 * 1000 is 1100.0000000000002 in floating point
    ['0.0001', 1],
    ['0.9999', 1_000],
    // HTTP-date, all three forms, measured from 2025-01-01T00:00:00Z
    ['Wed, 01 Jan 2025 00:01:00 GMT', 60_000],
    ['Wednesday, 01-Jan-25 00:01:00 GMT', 60_000],
    ['Wed Jan  1 00:01:00 2025', 60_000],
    ['Wed Jan 01 00:01:00 2025', 60_000],
    ['Thu, 02 Jan 2025 00:00:00 GMT', 86_400_000],
    // a date in the past is 0
    ['Sun, 06 Nov 1994 08:49:37 GMT', 0],
    ['Sunday, 06-Nov-94 08:49:37 GMT', 0],
    ['Sun Nov  6 08:49:37 1994', 0],
  ])('%j → %d ms', (value, ms) => {
    expect(parseRetryAfter(value, NOW)).toBe(ms);
  });

  it.each([
    '-5',
    '1e3',
    '0x10',
    '',
    '   ',
    'soon',
    'NaN',
    'Infinity',
    '+5',
    '.5',
    '1.',
    '5 s',
    '5s',
    '1_000',
    '١٢٠', // Arabic-Indic digits are not DIGIT
    '\n30',
    '2025-01-01T00:01:00Z', // RFC 3339 is not an HTTP-date
    'Wed, 01 Jan 2025 00:01:00 UTC',
    'Wed, 1 Jan 2025 00:01:00 GMT',
    'Wed, 31 Feb 2025 00:01:00 GMT',
    'Wed, 01 Jan 2025 24:00:00 GMT',
    'Wed, 01 Jan 2025 00:60:00 GMT',
    'wed, 01 jan 2025 00:01:00 gmt',
    'Wed, 01 Jan 2025 00:01:00 GMT junk',
    'Wed,01 Jan 2025 00:01:00 GMT',
  ])('%j → null', (value) => {
    expect(parseRetryAfter(value, NOW)).toBeNull();
  });

  it.each(['2147483649', '99999999999999', '99999999999999999999999', '99999999999999.5'])(
    'a delay too long to represent, %j, is the longest there is (2³¹ s, RFC 9111 §1.2.2), not dropped',
    (value) => {
      expect(parseRetryAfter(value, NOW)).toBe(2 ** 31 * 1000);
    },
  );

  it('reads a leap second without complaint', () => {
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:60 GMT', NOW)).toBe(60_000);
  });

  it('resolves RFC 850 two-digit years within 50 years of now', () => {
    // 2025 + 50 = 2075: "75" is 2075, "76" is 1976 (in the past: 0).
    expect(parseRetryAfter('Tuesday, 01-Jan-75 00:00:00 GMT', NOW)).toBe(
      Date.UTC(2075, 0, 1) - Date.UTC(2025, 0, 1),
    );
    expect(parseRetryAfter('Thursday, 01-Jan-76 00:00:00 GMT', NOW)).toBe(0);
  });

  it.each([
    ['1500', 1_500],
    ['0', 0],
    ['12.5', 13],
    ['12.0', 12],
    [' 250 ', 250],
    ['100, 200', 200],
    ['-1', null],
    ['1e3', null],
    ['soon', null],
    ['', null],
  ])('retry-after-ms %j → %s', (value, ms) => {
    expect(parseRetryAfterMs(value)).toBe(ms);
  });
});

describe('rule 4: Retry-After counts on 3xx, 4xx and 5xx, not on 2xx', () => {
  it.each([
    [100, null],
    [200, null],
    [202, null],
    [204, null],
    [299, null],
    [301, 5_000],
    [303, 5_000],
    [400, 5_000],
    [403, 5_000],
    [413, 5_000],
    [429, 5_000],
    [500, 5_000],
    [503, 5_000],
    [599, 5_000],
    [600, null],
    [Number.NaN, null],
  ])('status %d → %s', (status, ms) => {
    expect(read(status, { 'Retry-After': '5' }).retryAfterMs).toBe(ms);
  });
});
