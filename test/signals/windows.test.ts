import { describe, expect, it } from 'vitest';
import type { HeaderRecord } from '../../src/index.js';
import { read } from './helpers.js';

describe('rule 11: the request window the client paces on; rule 5 still sees every window', () => {
  it.each<
    [
      string,
      number,
      HeaderRecord,
      {
        limit: number | null;
        remaining: number | null;
        resetInMs: number | null;
        retryAfterMs: number | null;
      },
    ]
  >([
    [
      'OpenAI: requests, not the exhausted token window',
      429,
      {
        'x-ratelimit-limit-requests': '60',
        'x-ratelimit-remaining-requests': '59',
        'x-ratelimit-reset-requests': '1s',
        'x-ratelimit-limit-tokens': '1000',
        'x-ratelimit-remaining-tokens': '0',
        'x-ratelimit-reset-tokens': '20s',
      },
      { limit: 60, remaining: 59, resetInMs: 1_000, retryAfterMs: 20_000 },
    ],
    [
      'IETF: the binding request window; the token window only counts for retries',
      429,
      {
        'RateLimit-Policy': '"min";q=100;w=60, "day";q=5000;w=86400, "tok";q=1000;w=60;qu="tokens"',
        RateLimit: '"min";r=40;t=30, "day";r=10;t=7200, "tok";r=0;t=45',
      },
      { limit: 5000, remaining: 10, resetInMs: 7_200_000, retryAfterMs: 45_000 },
    ],
    [
      'IETF: a daily cap exhausted beside a fresh minute window',
      429,
      {
        'RateLimit-Policy': '"min";q=100;w=60, "day";q=5000;w=86400',
        RateLimit: '"min";r=99;t=59, "day";r=0;t=7200',
      },
      { limit: 5000, remaining: 0, resetInMs: 7_200_000, retryAfterMs: 7_200_000 },
    ],
    [
      'no request window: the binding window of any unit',
      200,
      {
        'RateLimit-Policy': '"in";q=100;qu="tokens", "out";q=50;qu="tokens"',
        RateLimit: '"in";r=40, "out";r=20;t=3',
      },
      { limit: 50, remaining: 20, resetInMs: 3_000, retryAfterMs: null },
    ],
    [
      'a window with unknown remaining does not bind',
      200,
      { 'RateLimit-Policy': '"a";q=10, "b";q=20', RateLimit: '"b";r=15;t=9' },
      { limit: 20, remaining: 15, resetInMs: 9_000, retryAfterMs: null },
    ],
    [
      'Anthropic: requests',
      200,
      {
        'anthropic-ratelimit-tokens-remaining': '0',
        'anthropic-ratelimit-requests-limit': '50',
        'anthropic-ratelimit-requests-remaining': '3',
      },
      { limit: 50, remaining: 3, resetInMs: null, retryAfterMs: null },
    ],
  ])('%s', (_what, status, headers, expected) => {
    expect(read(status, headers)).toMatchObject(expected);
  });
});
