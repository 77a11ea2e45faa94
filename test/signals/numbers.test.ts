import { describe, expect, it } from 'vitest';
import type { HeaderRecord } from '../../src/index.js';
import { parseCount, parseGoDuration, parseResetMs, parseRfc3339 } from '../../src/signals/numbers.js';
import { AT, epochSeconds, NOW, read } from './helpers.js';

describe('rule 6: resets of unknown meaning', () => {
  it.each([
    // numbers: < 1e9 seconds from now, [1e9, 1e12) epoch seconds, ≥ 1e12 epoch ms
    ['30', 30_000],
    ['0', 0],
    ['1.5', 1_500],
    ['0.0001', 1],
    ['999999999', 999_999_999_000],
    [epochSeconds(60), 60_000],
    [`${epochSeconds(60)}.5`, 60_500],
    [String(AT + 1_234), 1_234],
    ['1000000000', 0], // 2001: in the past
    ['1000000000000', 0], // 2001 in ms: in the past
    // Go durations (OpenAI)
    ['6m0s', 360_000],
    ['1m30.5s', 90_500],
    ['20ms', 20],
    ['1h2m', 3_720_000],
    ['0.5s', 500],
    ['1h', 3_600_000],
    ['0s', 0],
    ['100us', 1],
    ['2µs', 1],
    ['1.5ns', 1],
    ['1h2m3s4ms5us6ns', 3_723_005],
    // RFC 3339 (Anthropic)
    ['2025-01-01T00:00:30Z', 30_000],
    ['2025-01-01T00:00:30.250Z', 30_250],
    ['2025-01-01t00:00:30z', 30_000],
    ['2025-01-01T01:00:30+01:00', 30_000],
    ['2024-12-31T23:00:30-01:00', 30_000],
    ['2024-02-29T00:00:00Z', 0],
    // HTTP-date
    ['Wed, 01 Jan 2025 00:01:00 GMT', 60_000],
  ])('%j → %d ms', (text, ms) => {
    expect(parseResetMs(text, NOW)).toBe(ms);
  });

  it.each([
    '-5',
    '1e3',
    '0x10',
    '',
    'soon',
    '-1s',
    '+1s',
    '1x',
    's',
    '1.s',
    '1 s',
    '1m 30s',
    '2025-13-01T00:00:00Z',
    '2025-02-29T00:00:00Z',
    '2025-01-01T00:00:00',
    '2025-01-01T00:00:00+24:00',
    '2025-01-01',
    'Infinity',
  ])('%j → null', (text) => {
    expect(parseResetMs(text, NOW)).toBeNull();
  });

  it('Go durations and RFC 3339 stand alone too', () => {
    expect(parseGoDuration('1m30.5s')).toBe(90_500);
    expect(parseGoDuration('30')).toBeNull();
    expect(parseRfc3339('2025-01-01T00:00:00.5Z')).toBe(AT + 500);
    expect(parseRfc3339('Wed, 01 Jan 2025 00:01:00 GMT')).toBeNull();
  });
});

describe('rule 9: counters are strict numbers, floored', () => {
  it.each([
    ['10', 10],
    ['10.9', 10],
    ['0', 0],
    ['-3', -3],
    ['-0', 0],
    ['-0.5', -1],
    ['1e3', null],
    ['0x10', null],
    ['', null],
    ['+5', null],
    ['5.', null],
    ['.5', null],
    ['ten', null],
    ['123456789012345678901', null],
  ])('%j → %s', (text, count) => {
    expect(parseCount(text)).toBe(count);
  });

  it.each<[string, HeaderRecord, { limit: number | null; remaining: number | null }]>([
    [
      'trimmed',
      { 'x-ratelimit-limit': '  10 ', 'x-ratelimit-remaining': '\t7' },
      { limit: 10, remaining: 7 },
    ],
    [
      'floored',
      { 'x-ratelimit-limit': '10.7', 'x-ratelimit-remaining': '6.99' },
      { limit: 10, remaining: 6 },
    ],
    [
      'negative remaining clamps to 0',
      { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '-2' },
      { limit: 10, remaining: 0 },
    ],
    [
      'negative remaining, no limit',
      { 'x-ratelimit-remaining': '-2', 'x-ratelimit-reset': '1' },
      { limit: null, remaining: 0 },
    ],
    [
      'negative limit: the pair is unknown',
      { 'x-ratelimit-limit': '-1', 'x-ratelimit-remaining': '5', 'x-ratelimit-reset': '9' },
      { limit: null, remaining: null },
    ],
    [
      'hex is not a number',
      { 'x-ratelimit-limit': '0x10', 'x-ratelimit-remaining': '1e3', 'x-ratelimit-reset': '9' },
      { limit: null, remaining: null },
    ],
  ])('%s', (_what, headers, expected) => {
    expect(read(200, headers)).toMatchObject(expected);
  });
});
