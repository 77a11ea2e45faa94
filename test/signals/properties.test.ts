import fc from 'fast-check';
import { serializeList } from 'structured-headers';
import { describe, expect, it } from 'vitest';
import type { HeaderRecord, RateLimitSignal } from '../../src/index.js';
import { readRateLimit } from '../../src/index.js';
import { parseHttpDate } from '../../src/signals/http-date.js';
import { readIetf } from '../../src/signals/ietf.js';
import { parseRfc3339 } from '../../src/signals/numbers.js';
import { parseRetryAfter } from '../../src/signals/retry-after.js';
import { AT, NOW } from './helpers.js';

/** Names the reader looks at, so that arbitrary values reach every parser. */
const KNOWN_NAMES = [
  'retry-after',
  'Retry-After',
  'retry-after-ms',
  'date',
  'age',
  'ratelimit',
  'RateLimit-Policy',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'x-ratelimit-limit',
  'X-RateLimit-Remaining',
  'x-ratelimit-reset',
  'x-rate-limit-remaining',
  'x-ratelimit-resource',
  'x-ratelimit-reset-after',
  'x-ratelimit-bucket',
  'x-ratelimit-remaining-tokens',
  'x-ratelimit-reset-requests',
  'anthropic-ratelimit-requests-reset',
  'anthropic-ratelimit-tokens-remaining',
  'x-shopify-shop-api-call-limit',
];

/** Characters that matter to the parsers, plus control characters and non-ASCII. */
const JUNK = fc.constantFrom(
  ...'0123456789,;=:"()?@%*-. \t\r\n\u0000\u007f\u00b5é💥abcdefqrtwGMTZs/'.split(''),
  'Mon, ',
  'Sun, 06 Nov 1994 08:49:37 GMT',
  '2025-01-01T00:00:30Z',
  '"default";r=',
  ';q=',
  ';w=',
  'limit=',
  '1e3',
  '0x10',
);
const junkValue = fc.string({ unit: JUNK, maxLength: 60 });
/** Junk repeated to `min`…`max` characters: long values, quickly generated. */
const longJunk = (min: number, max: number) =>
  fc
    .tuple(junkValue, fc.integer({ min, max }))
    .map(([seed, n]) => (seed || 'x').repeat(Math.ceil(n / Math.max(1, seed.length))).slice(0, n));
const anyValue = fc.oneof(
  junkValue,
  fc.string({ unit: 'binary' }),
  longJunk(100, 4096), // under the length cap: parsed
  longJunk(10_000, 10_240), // 10 KB: over the cap
);
const anyName = fc.oneof(fc.constantFrom(...KNOWN_NAMES), fc.string({ unit: 'binary', maxLength: 30 }));
const anyRecord = fc.dictionary(anyName, fc.oneof(anyValue, fc.array(anyValue, { maxLength: 3 })), {
  maxKeys: 12,
});
const anyStatus = fc.oneof(
  fc.constantFrom(200, 403, 429, 503),
  fc.integer({ min: -1000, max: 1000 }),
  fc.double(),
);

function expectWellFormed(signal: RateLimitSignal, receivedAt: number): void {
  for (const value of [signal.retryAfterMs, signal.limit, signal.remaining, signal.resetInMs]) {
    if (value !== null) {
      expect(Number.isSafeInteger(value)).toBe(true);
      expect(value).toBeGreaterThanOrEqual(0);
    }
  }
  expect(signal.resetAtMs).toBe(signal.resetInMs === null ? null : receivedAt + signal.resetInMs);
  for (const policy of signal.policies) {
    expect(typeof policy.name).toBe('string');
    expect(typeof policy.unit).toBe('string');
  }
}

describe('readRateLimit is total', () => {
  it('never throws on arbitrary records, and stays well formed', () => {
    fc.assert(
      fc.property(anyRecord, anyStatus, (headers, status) => {
        const signal = readRateLimit({ status, headers: headers as HeaderRecord }, { receivedAt: AT });
        expectWellFormed(signal, AT);
      }),
      { numRuns: 400 },
    );
  });

  it('never throws on arbitrary Headers objects', () => {
    const headerName = fc.oneof(fc.constantFrom(...KNOWN_NAMES), fc.stringMatching(/^[a-z-]{1,20}$/));
    const headerValue = fc.oneof(junkValue, fc.string({ unit: 'grapheme-ascii', maxLength: 10_240 }));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(headerName, headerValue), { maxLength: 10 }),
        anyStatus,
        (lines, status) => {
          const headers = new Headers();
          for (const [name, value] of lines) {
            try {
              headers.append(name, value);
            } catch {
              // Headers refuses some values (NUL, CR, LF): not the reader's business.
            }
          }
          expectWellFormed(readRateLimit({ status, headers }, { receivedAt: AT }), AT);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('reads 100 KB of commas and nested junk (and the same just under the length cap) as well-formed signals', () => {
    const big = 100_000;
    const shapes = [
      ','.repeat(big),
      '('.repeat(big),
      `${'"a";r=1, '.repeat(big / 9)}"a";r=1`,
      `${'Mon, '.repeat(big / 5)}`,
      `${'1'.repeat(big)}`,
      `${'1h'.repeat(big / 2)}`,
      `${':'.repeat(big)}`,
      `${'a=('.repeat(big / 3)}`,
    ];
    // The same shapes just under the length cap, where the parsers really run.
    const capped = shapes.map((s) => s.slice(0, 4096));
    for (const value of [...shapes, ...capped]) {
      const headers: Record<string, string> = Object.fromEntries(KNOWN_NAMES.map((name) => [name, value]));
      expectWellFormed(readRateLimit({ status: 429, headers }, { receivedAt: AT }), AT);
      expectWellFormed(readRateLimit({ status: 429, headers: new Headers(headers) }, { receivedAt: AT }), AT);
    }
    // How fast these parse (linear time) is a speed target for `bench/`, not for a unit test.
  });
});

describe('round trips', () => {
  const epochMs = fc.integer({ min: 0, max: Date.UTC(9999, 11, 31, 23, 59, 59) });

  it('every IMF-fixdate Date#toUTCString writes parses back, to the second', () => {
    fc.assert(
      fc.property(epochMs, (t) => {
        expect(parseHttpDate(new Date(t).toUTCString(), AT)).toBe(t - (t % 1000));
      }),
    );
  });

  it('every RFC 3339 Date#toISOString writes parses back', () => {
    fc.assert(
      fc.property(epochMs, (t) => {
        expect(parseRfc3339(new Date(t).toISOString())).toBe(t);
      }),
    );
  });

  it('delay-seconds n is n·1000 ms, at most 2³¹ s', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 40 }), (n) => {
        expect(parseRetryAfter(String(n), NOW)).toBe(Math.min(n, 2 ** 31) * 1000);
      }),
    );
  });

  it('IETF fields serialized by structured-headers read back', () => {
    const name = fc.string({ unit: 'grapheme-ascii', maxLength: 12 });
    const count = fc.integer({ min: 0, max: 1e9 });
    // A window `w` is a positive Integer (drafts 10–11): `w=0` drops its item.
    const window = fc.integer({ min: 1, max: 1e9 });
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(name, count, window, count, count), { selector: (t) => t[0], maxLength: 5 }),
        (rows) => {
          const policy = serializeList(
            rows.map(([n, q, w]) => [
              n,
              new Map<string, number>([
                ['q', q],
                ['w', w],
              ]),
            ]),
          );
          const current = serializeList(
            rows.map(([n, , , r, t]) => [
              n,
              new Map<string, number>([
                ['r', r],
                ['t', t],
              ]),
            ]),
          );
          expect(readIetf(current, policy)).toEqual(
            rows.map(([n, q, w, r, t]) => ({
              name: n,
              quota: q,
              windowMs: w * 1000,
              remaining: r,
              resetInMs: t * 1000,
              partitionKey: null,
              unit: 'requests',
            })),
          );
        },
      ),
    );
  });
});
