import { describe, expect, it } from 'vitest';
import type { HeaderRecord, RateLimitDialect } from '../../src/index.js';
import { epochSeconds, read } from './helpers.js';

const exhausted = { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '30' };

describe('rule 5: retry-after-ms > Retry-After > exhausted windows (403/429/503) > null', () => {
  it.each<[string, number, HeaderRecord, number | null]>([
    ['retry-after-ms beats Retry-After', 429, { 'retry-after-ms': '1500', 'Retry-After': '5' }, 1_500],
    ['retry-after-ms of 0 still wins', 429, { 'retry-after-ms': '0', 'Retry-After': '5' }, 0],
    [
      'invalid retry-after-ms falls to Retry-After',
      429,
      { 'retry-after-ms': 'x', 'Retry-After': '5' },
      5_000,
    ],
    ['Retry-After beats an exhausted window', 429, { ...exhausted, 'Retry-After': '5' }, 5_000],
    [
      'invalid Retry-After falls to the exhausted window',
      429,
      { ...exhausted, 'Retry-After': 'soon' },
      30_000,
    ],
    ['429 with an exhausted window', 429, exhausted, 30_000],
    ['503 with an exhausted window', 503, exhausted, 30_000],
    [
      'GitHub 403 with remaining 0',
      403,
      { 'x-ratelimit-limit': '5000', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': epochSeconds(3600) },
      3_600_000,
    ],
    ['500 does not read windows', 500, exhausted, null],
    ['404 does not read windows', 404, exhausted, null],
    ['200 with 0 remaining succeeded', 200, exhausted, null],
    ['429 with remaining > 0 and no retry field', 429, { ...exhausted, 'x-ratelimit-remaining': '3' }, null],
    ['429 exhausted but reset unknown', 429, { 'x-ratelimit-remaining': '0' }, null],
    [
      'every exhausted IETF window counts, the largest reset wins',
      429,
      {
        'RateLimit-Policy': '"burst";q=10;w=1, "daily";q=1000;w=86400',
        RateLimit: '"burst";r=0;t=1, "daily";r=0;t=3600',
      },
      3_600_000,
    ],
    [
      'an exhausted token window counts though the client paces on requests',
      429,
      {
        'x-ratelimit-limit-requests': '60',
        'x-ratelimit-remaining-requests': '59',
        'x-ratelimit-reset-requests': '1s',
        'x-ratelimit-limit-tokens': '150000',
        'x-ratelimit-remaining-tokens': '0',
        'x-ratelimit-reset-tokens': '6m0s',
      },
      360_000,
    ],
    ['429 with nothing', 429, {}, null],
  ])('%s', (_what, status, headers, ms) => {
    expect(read(status, headers).retryAfterMs).toBe(ms);
  });

  it('a 200 with 0 remaining reports remaining 0, not a retry', () => {
    expect(read(200, exhausted)).toMatchObject({
      retryAfterMs: null,
      remaining: 0,
      limit: 60,
      resetInMs: 30_000,
    });
  });

  it.each<[number, HeaderRecord, RateLimitDialect]>([
    [429, { 'Retry-After': '5' }, 'retry-after'],
    [429, { 'retry-after-ms': '5' }, 'retry-after'],
    [200, { 'Retry-After': '5' }, 'none'],
    [429, { 'Retry-After': 'soon' }, 'none'],
    [429, {}, 'none'],
  ])('status %d with %j → dialect %s', (status, headers, dialect) => {
    expect(read(status, headers).dialect).toBe(dialect);
  });
});
