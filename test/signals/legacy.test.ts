import { describe, expect, it } from 'vitest';
import type { HeaderRecord, RateLimitDialect, RateLimitPolicy } from '../../src/index.js';
import { epochSeconds, policy, read } from './helpers.js';

const w = policy;

describe('rule 8: older drafts and the X-RateLimit family', () => {
  it.each<[string, HeaderRecord, RateLimitDialect, RateLimitPolicy[]]>([
    // draft-03: the limit may be a list whose first member is the limit
    ['draft-03 list', { 'RateLimit-Limit': '10, 10;w=1' }, 'draft-6', [w({ quota: 10, windowMs: 1_000 })]],
    [
      'draft-03 list with a window on the first member',
      { 'RateLimit-Limit': '100;w=60' },
      'draft-6',
      [w({ quota: 100, windowMs: 60_000 })],
    ],
    [
      'draft-03 list with more policies',
      { 'RateLimit-Limit': '10, 10;w=1, 50;w=60', 'RateLimit-Remaining': '9', 'RateLimit-Reset': '1' },
      'draft-6',
      [
        w({ quota: 10, windowMs: 1_000, remaining: 9, resetInMs: 1_000 }),
        w({ name: '50;w=60', quota: 50, windowMs: 60_000 }),
      ],
    ],
    [
      'draft-03 list in X-RateLimit-Limit',
      { 'X-RateLimit-Limit': '10, 10;w=1' },
      'x-ratelimit',
      [w({ quota: 10, windowMs: 1_000 })],
    ],
    // drafts 04–06
    [
      'draft-6 triple',
      { 'RateLimit-Limit': '100', 'RateLimit-Remaining': '50', 'RateLimit-Reset': '30' },
      'draft-6',
      [w({ quota: 100, remaining: 50, resetInMs: 30_000 })],
    ],
    [
      'draft-6 triple with a RateLimit-Policy',
      {
        'RateLimit-Limit': '100',
        'RateLimit-Remaining': '50',
        'RateLimit-Reset': '30',
        'RateLimit-Policy': '100;w=60',
      },
      'draft-6',
      [w({ quota: 100, windowMs: 60_000, remaining: 50, resetInMs: 30_000 })],
    ],
    [
      'draft-6 reset as epoch seconds (rule 6)',
      { 'RateLimit-Reset': epochSeconds(90) },
      'draft-6',
      [w({ resetInMs: 90_000 })],
    ],
    // draft-07
    [
      'draft-7 dictionary',
      { RateLimit: 'limit=100, remaining=50, reset=5' },
      'draft-7',
      [w({ quota: 100, remaining: 50, resetInMs: 5_000 })],
    ],
    [
      'draft-7 dictionary with its policy',
      { RateLimit: 'limit=100, remaining=50, reset=5', 'RateLimit-Policy': '100;w=60' },
      'draft-7',
      [w({ quota: 100, windowMs: 60_000, remaining: 50, resetInMs: 5_000 })],
    ],
    [
      'draft-7 with two policies',
      {
        RateLimit: 'limit=10, remaining=1, reset=1',
        'RateLimit-Policy': '10;w=1, 1000;w=3600;comment="hourly"',
      },
      'draft-7',
      [
        w({ quota: 10, windowMs: 1_000, remaining: 1, resetInMs: 1_000 }),
        w({ name: '1000;w=3600', quota: 1000, windowMs: 3_600_000 }),
      ],
    ],
    [
      'draft-7 policy alone',
      { 'RateLimit-Policy': '100;w=60' },
      'draft-7',
      [w({ name: '100;w=60', quota: 100, windowMs: 60_000 })],
    ],
    ['draft-7 partial dictionary', { RateLimit: 'remaining=0' }, 'draft-7', [w({ remaining: 0 })]],
    ['draft-7 decimal reset', { RateLimit: 'reset=1.5' }, 'draft-7', [w({ resetInMs: 1_500 })]],
    [
      'draft-7 negative remaining clamps',
      { RateLimit: 'limit=10, remaining=-3' },
      'draft-7',
      [w({ quota: 10, remaining: 0 })],
    ],
    [
      'draft-7 negative limit: pair unknown',
      { RateLimit: 'limit=-10, remaining=3, reset=2' },
      'draft-7',
      [w({ resetInMs: 2_000 })],
    ],
    ['draft-7 syntax error', { RateLimit: 'limit=100, remaining=' }, 'none', []],
    ['draft-7 values of the wrong type', { RateLimit: 'limit="100", remaining=?1' }, 'none', []],
    // X-RateLimit
    [
      'GitHub',
      {
        'x-ratelimit-limit': '5000',
        'x-ratelimit-remaining': '4999',
        'x-ratelimit-reset': epochSeconds(3600),
        'x-ratelimit-used': '1',
        'x-ratelimit-resource': 'core',
      },
      'x-ratelimit',
      [w({ name: 'core', quota: 5000, remaining: 4999, resetInMs: 3_600_000 })],
    ],
    [
      'X-Rate-Limit spelling (Twitter/X)',
      { 'x-rate-limit-limit': '15', 'x-rate-limit-remaining': '14', 'x-rate-limit-reset': epochSeconds(900) },
      'x-ratelimit',
      [w({ quota: 15, remaining: 14, resetInMs: 900_000 })],
    ],
    [
      'X-RateLimit reset in epoch ms',
      { 'X-RateLimit-Reset': `${epochSeconds(5)}000` },
      'x-ratelimit',
      [w({ resetInMs: 5_000 })],
    ],
    ['nothing valid', { 'X-RateLimit-Limit': 'lots', 'X-RateLimit-Reset': 'later' }, 'none', []],
  ])('%s', (_what, headers, dialect, policies) => {
    const signal = read(200, headers);
    expect(signal.dialect).toBe(dialect);
    expect(signal.policies).toEqual(policies);
  });

  it.each([
    ['"default";r=50;t=30', 'ietf'],
    ['limit=100, remaining=50, reset=5', 'draft-7'],
    ['remaining=50', 'draft-7'],
    ['default;r=50;t=30', 'none'],
  ] as const)('RateLimit: %s is read as %s', (value, dialect) => {
    expect(read(200, { RateLimit: value }).dialect).toBe(dialect);
  });

  it('reads a RateLimit-Policy alike whether it repeats the one before it or not (the memo changes no result)', () => {
    const at = (policy: string) =>
      read(200, { RateLimit: 'limit=10, remaining=4, reset=1', 'RateLimit-Policy': policy }).policies;
    const hourly = at('10;w=1, 1000;w=3600');
    const expected = [
      w({ quota: 10, windowMs: 1_000, remaining: 4, resetInMs: 1_000 }),
      w({ name: '1000;w=3600', quota: 1000, windowMs: 3_600_000 }),
    ];
    expect(hourly).toEqual(expected);
    (hourly[1] as { quota: number | null }).quota = 99;
    expect(at('10;w=1, 1000;w=3600')).toEqual(expected);
    expect(at('10;w=1')).toEqual([w({ quota: 10, windowMs: 1_000, remaining: 4, resetInMs: 1_000 })]);
    expect(at('10;w=1, 1000;w=3600')).toEqual(expected);
    expect(at('10;w=')).toEqual([w({ quota: 10, remaining: 4, resetInMs: 1_000 })]);
  });
});
