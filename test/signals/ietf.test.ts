import { describe, expect, it } from 'vitest';
import type { RateLimitPolicy } from '../../src/index.js';
import { IETF_PARAMETERS, readIetf } from '../../src/signals/ietf.js';
import { policy, read } from './helpers.js';

/** A window with the defaults of the drafts filled in. */
const w = (fields: Partial<RateLimitPolicy> & { name: string }): RateLimitPolicy => policy(fields);

describe('rule 7: IETF RateLimit and RateLimit-Policy structured fields (drafts 08–11)', () => {
  it.each<[string, string | null, string | null, RateLimitPolicy[]]>([
    [
      'the draft example',
      '"default";q=100;w=60',
      '"default";r=50;t=30',
      [w({ name: 'default', quota: 100, windowMs: 60_000, remaining: 50, resetInMs: 30_000 })],
    ],
    [
      'several policies, matched by name',
      '"burst";q=100;w=60, "daily";q=1000;w=86400',
      '"daily";r=900;t=3600, "burst";r=50;t=30',
      [
        w({ name: 'burst', quota: 100, windowMs: 60_000, remaining: 50, resetInMs: 30_000 }),
        w({ name: 'daily', quota: 1000, windowMs: 86_400_000, remaining: 900, resetInMs: 3_600_000 }),
      ],
    ],
    [
      'RateLimit alone',
      null,
      '"default";r=50;t=30',
      [w({ name: 'default', remaining: 50, resetInMs: 30_000 })],
    ],
    [
      'RateLimit-Policy alone',
      '"default";q=100;w=60',
      null,
      [w({ name: 'default', quota: 100, windowMs: 60_000 })],
    ],
    ['t and w are optional', '"a";q=10', '"a";r=5', [w({ name: 'a', quota: 10, remaining: 5 })]],
    [
      'a RateLimit item beside the one its policy met is read on its own',
      '"a";q=10',
      '"a";r=5, "b";r=6',
      [w({ name: 'a', quota: 10, remaining: 5 }), w({ name: 'b', remaining: 6 })],
    ],
    [
      'an item a policy met but the draft drops still leaves the others to be read',
      '"a";q=10',
      '"a";r=-1, "b";r=6',
      [w({ name: 'a', quota: 10 }), w({ name: 'b', remaining: 6 })],
    ],
    [
      'qu and pk (a Byte Sequence, kept as base64)',
      '"tok";q=1000;w=60;qu="tokens";pk=:dXNlcjE=:',
      '"tok";r=10;t=5;pk=:dXNlcjE=:',
      [
        w({
          name: 'tok',
          quota: 1000,
          windowMs: 60_000,
          remaining: 10,
          resetInMs: 5_000,
          unit: 'tokens',
          partitionKey: 'dXNlcjE=',
        }),
      ],
    ],
    [
      'unknown parameters are ignored',
      '"a";q=10;foo="x";z',
      '"a";r=5;t=1;comment="hi";flag',
      [w({ name: 'a', quota: 10, remaining: 5, resetInMs: 1_000 })],
    ],
    // a syntax error drops the whole field
    ['syntax error in RateLimit', '"a";q=10', '"a";r=5,', [w({ name: 'a', quota: 10 })]],
    ['syntax error in RateLimit-Policy', '"a";q=10;w=', '"a";r=5', [w({ name: 'a', remaining: 5 })]],
    ['unbalanced quote', '"a;q=10', '"a";r=5', [w({ name: 'a', remaining: 5 })]],
    // an item that breaks the draft is dropped alone
    ['Token name', null, 'a;r=5, "b";r=6', [w({ name: 'b', remaining: 6 })]],
    ['Integer name', null, '7;r=5, "b";r=6', [w({ name: 'b', remaining: 6 })]],
    ['inner list', null, '("a" "b");r=1, "c";r=2', [w({ name: 'c', remaining: 2 })]],
    ['r missing', null, '"a";t=1, "b";r=6', [w({ name: 'b', remaining: 6 })]],
    ['r negative', null, '"a";r=-1, "b";r=6', [w({ name: 'b', remaining: 6 })]],
    ['r a Decimal', null, '"a";r=1.5, "b";r=6', [w({ name: 'b', remaining: 6 })]],
    ['r a String', null, '"a";r="5", "b";r=6', [w({ name: 'b', remaining: 6 })]],
    ['r a Boolean', null, '"a";r, "b";r=6', [w({ name: 'b', remaining: 6 })]],
    ['t negative', null, '"a";r=1;t=-1, "b";r=6', [w({ name: 'b', remaining: 6 })]],
    ['t a Decimal', null, '"a";r=1;t=0.5, "b";r=6', [w({ name: 'b', remaining: 6 })]],
    ['q missing', '"a";w=60, "b";q=6', null, [w({ name: 'b', quota: 6 })]],
    ['q negative', '"a";q=-1, "b";q=6', null, [w({ name: 'b', quota: 6 })]],
    ['w negative', '"a";q=1;w=-60, "b";q=6', null, [w({ name: 'b', quota: 6 })]],
    ['w a Token', '"a";q=1;w=sixty, "b";q=6', null, [w({ name: 'b', quota: 6 })]],
    ['only broken items', null, 'default;r=50;t=30', []],
    ['duplicate names: the first wins', null, '"a";r=1, "a";r=9', [w({ name: 'a', remaining: 1 })]],
  ])('%s', (_what, policy, current, windows) => {
    expect(readIetf(current, policy)).toEqual(windows);
  });

  it.each([
    ['the lowest r binds', '"a";r=5;t=10, "b";r=2;t=1', { remaining: 2, resetInMs: 1_000, limit: 20 }],
    [
      'a tie goes to the larger t',
      '"a";r=2;t=10, "b";r=2;t=20',
      { remaining: 2, resetInMs: 20_000, limit: 20 },
    ],
    [
      'limit is the q of the same name',
      '"a";r=1;t=5, "b";r=2;t=20',
      { remaining: 1, resetInMs: 5_000, limit: 10 },
    ],
  ])('%s', (_what, current, expected) => {
    const signal = read(200, { 'RateLimit-Policy': '"a";q=10;w=1, "b";q=20;w=60', RateLimit: current });
    expect(signal).toMatchObject({ ...expected, dialect: 'ietf' });
  });

  it('reads alike whether a value repeats the one before it, comes back later or not (the memos change no result)', () => {
    const policy = '"a";q=10;w=1';
    const expected = (remaining: number) => [
      w({ name: 'a', quota: 10, windowMs: 1_000, remaining, resetInMs: 1_000 }),
    ];
    for (const r of [5, 5, 4, 5, 4, 4]) expect(readIetf(`"a";r=${r};t=1`, policy)).toEqual(expected(r));
    expect(readIetf('"a";r=;t=1', policy)).toEqual([w({ name: 'a', quota: 10, windowMs: 1_000 })]);
    const first = readIetf('"a";r=3;t=1', policy);
    (first[0] as { remaining: number | null }).remaining = 99;
    expect(readIetf('"a";r=3;t=1', policy)).toEqual(expected(3));
  });

  it('reads the common shape `"name";r=…;t=…` after the first such value exactly as the scan does, and nothing else by it', () => {
    const policy = '"api";q=100;w=60';
    const counted = (remaining: number, resetInMs: number) => [
      w({ name: 'api', quota: 100, windowMs: 60_000, remaining, resetInMs }),
    ];
    const unread = [w({ name: 'api', quota: 100, windowMs: 60_000 })];
    // The first value teaches the shape; the others start with its prefix.
    const cases: [string, RateLimitPolicy[]][] = [
      ['"api";r=50;t=30', counted(50, 30_000)],
      ['"api";r=49;t=29', counted(49, 29_000)],
      ['"api";r=007;t=0', counted(7, 0)],
      ['"api";r=999999999999999;t=1', counted(999_999_999_999_999, 1_000)],
      ['"api";r=1000000000000000;t=1', unread], // 16 digits: not an RFC 9651 Integer, the field is dropped
      ['"api";r=5.5;t=1', unread], // a Decimal: the item breaks the draft
      ['"api";r=5;t=1.5', unread],
      ['"api";r=5;t=-1', unread],
      ['"api";r=;t=1', unread],
      ['"api";r=5;t=', unread],
      ['"api";r=5', [w({ name: 'api', quota: 100, windowMs: 60_000, remaining: 5 })]],
      ['"api";r=5;t=1 ', counted(5, 1_000)], // trailing space: the scan reads it
      ['"api";r=5;t=1;pk=:YWJj:', [w({ ...counted(5, 1_000)[0]!, partitionKey: 'YWJj' })]],
      ['"api";r=5;t=1, "other";r=1', [...counted(5, 1_000), w({ name: 'other', remaining: 1 })]],
      ['"api";r=4;t=2', counted(4, 2_000)],
    ];
    for (const [value, windows] of cases) expect(readIetf(value, policy), value).toEqual(windows);
  });

  it('keeps every parameter name in one table', () => {
    expect(IETF_PARAMETERS).toEqual({
      quota: 'q',
      window: 'w',
      quotaUnit: 'qu',
      partitionKey: 'pk',
      remaining: 'r',
      reset: 't',
    });
  });
});

describe('rule 12: a response with Age > 0 came from a cache: its IETF fields are ignored', () => {
  const ietf = { 'RateLimit-Policy': '"a";q=10;w=1', RateLimit: '"a";r=0;t=5' };
  it.each([
    ['Age 10: ignored', { ...ietf, Age: '10' }, 'none', null],
    ['Age 0: read', { ...ietf, Age: '0' }, 'ietf', 0],
    ['Age 000: read', { ...ietf, Age: '000' }, 'ietf', 0],
    ['invalid Age: read', { ...ietf, Age: 'old' }, 'ietf', 0],
    ['draft-7 ignored too', { RateLimit: 'limit=10, remaining=0, reset=5', Age: '3' }, 'none', null],
    ['draft-6 ignored too', { 'RateLimit-Remaining': '0', 'RateLimit-Reset': '5', Age: '3' }, 'none', null],
    ['X-RateLimit is still read', { ...ietf, Age: '10', 'X-RateLimit-Remaining': '4' }, 'x-ratelimit', 4],
  ] as const)('%s', (_what, headers, dialect, remaining) => {
    expect(read(200, headers)).toMatchObject({ dialect, remaining });
  });
});
