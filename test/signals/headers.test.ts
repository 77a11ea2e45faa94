import { describe, expect, it } from 'vitest';
import type { HeaderRecord, RateLimitResponse } from '../../src/index.js';
import { readRateLimit } from '../../src/index.js';
import { MAX_FIELD_LENGTH } from '../../src/signals/fields.js';
import { AT, read } from './helpers.js';

const github = {
  'X-RateLimit-Limit': '60',
  'X-RateLimit-Remaining': '0',
  'X-RateLimit-Reset': String(AT / 1000 + 60),
  'Retry-After': '61',
};

describe('rule 10: names are case-insensitive; every header source reads alike', () => {
  const expected = {
    limit: 60,
    remaining: 0,
    resetInMs: 60_000,
    retryAfterMs: 61_000,
    dialect: 'x-ratelimit',
  };
  it.each<[string, HeaderRecord | Headers]>([
    ['a record', github],
    ['a lower-case record', Object.fromEntries(Object.entries(github).map(([k, v]) => [k.toLowerCase(), v]))],
    [
      'an upper-case record',
      Object.fromEntries(Object.entries(github).map(([k, v]) => [k.toUpperCase(), v])),
    ],
    ['a record of arrays', Object.fromEntries(Object.entries(github).map(([k, v]) => [k, [v]]))],
    ['a Headers object', new Headers(github)],
    ['a Response', new Response(null, { status: 429, headers: github }).headers],
  ])('%s', (_what, headers) => {
    expect(read(429, headers)).toMatchObject(expected);
  });

  it('reads a Fetch Response directly', () => {
    const response = new Response(null, { status: 429, headers: github });
    expect(readRateLimit(response, { receivedAt: AT })).toMatchObject(expected);
  });

  it.each<[string, unknown, number | null]>([
    ['undefined values are skipped', { 'retry-after': undefined }, null],
    ['non-string values are skipped', { 'retry-after': 5 }, null],
    ['arrays with a non-string are skipped', { 'retry-after': ['5', 6] }, null],
    ['an empty array is an empty field', { 'retry-after': [] }, null],
    ['an overlong field is absent', { 'retry-after': `5${' x'.repeat(MAX_FIELD_LENGTH / 2)}` }, null],
    [
      'an overlong delay padded with zeros is its value',
      { 'retry-after': `${'0'.repeat(MAX_FIELD_LENGTH)}5` },
      5_000,
    ],
    ['an overlong array is absent', { 'retry-after': Array.from({ length: 2000 }, () => '5') }, null],
    ['a field at the length limit is read', { 'retry-after': `${' '.repeat(MAX_FIELD_LENGTH - 1)}5` }, 5_000],
  ])('%s', (_what, headers, ms) => {
    expect(read(429, headers as HeaderRecord).retryAfterMs).toBe(ms);
  });

  it.each<[string, unknown]>([
    ['null headers', { status: 429, headers: null }],
    ['missing headers', { status: 429 }],
    ['a null response', null],
    ['a string response', 'HTTP/1.1 429'],
    [
      'a throwing getter',
      {
        status: 429,
        headers: Object.defineProperty({}, 'retry-after', {
          enumerable: true,
          get() {
            throw new Error('boom');
          },
        }),
      },
    ],
    [
      'a throwing Proxy',
      {
        status: 429,
        headers: new Proxy(
          {},
          {
            ownKeys() {
              throw new Error('boom');
            },
          },
        ),
      },
    ],
  ])('never throws: %s', (_what, response) => {
    expect(readRateLimit(response as RateLimitResponse, { receivedAt: AT })).toEqual({
      retryAfterMs: null,
      limit: null,
      remaining: null,
      resetInMs: null,
      resetAtMs: null,
      policies: [],
      dialect: 'none',
    });
  });

  it('reads alike past the bound of the name memo (512 distinct names)', () => {
    for (let round = 0; round < 3; round++) {
      const many: Record<string, string> = { 'Retry-After': '3' };
      for (let i = 0; i < 600; i++) many[`x-round-${round}-${i}`] = String(i);
      expect(read(429, many).retryAfterMs).toBe(3_000);
      expect(read(429, { 'RETRY-AFTER': '4' }).retryAfterMs).toBe(4_000);
    }
  });

  it('ignores a receivedAt that is not a finite number', () => {
    const signal = readRateLimit(
      { status: 200, headers: { 'ratelimit-reset': '1' } },
      { receivedAt: Number.NaN },
    );
    expect(Number.isFinite(signal.resetAtMs)).toBe(true);
  });
});
