import { describe, expect, it } from 'vitest';
import { readIetf } from '../../src/signals/ietf.js';
import { policy, read } from './helpers.js';

/**
 * Found in review (second pass over the IETF fields): each case below reads a field the way the
 * spec does not.
 */
describe('Age and the IETF fields', () => {
  const ietf = { 'RateLimit-Policy': '"a";q=10;w=1', RateLimit: '"a";r=0;t=5' };

  // RFC 9111 §5.1: "a cache encountering a message with a list-based Age field value SHOULD use
  // the first member of the field value, discarding subsequent ones". Two Age lines (two caches,
  // or a cache that appends) reach a Fetch `Headers` joined as `10, 10`: still a positive age, so
  // the response came from a cache and its RateLimit fields are stale (draft-11 §7.3).
  it.each([
    ['Age: 10, 10 (one line)', { ...ietf, Age: '10, 10' }],
    ['two Age field lines', { ...ietf, Age: ['10', '10'] }],
    [
      'two Age field lines in a Headers object',
      new Headers([...Object.entries(ietf), ['Age', '10'], ['Age', '10']]),
    ],
  ] as const)('a list-based Age is read by its first member: %s', (_what, headers) => {
    expect(read(200, headers as never)).toMatchObject({ dialect: 'none', remaining: null });
  });

  // RFC 9111 §1.2.2: a delta-seconds too large to represent MUST be read as 2147483648 — still a
  // positive age, never "no Age at all".
  it('an Age too large to represent is still a positive age (RFC 9111 §1.2.2)', () => {
    expect(read(200, { ...ietf, Age: '123456789012345678901234' })).toMatchObject({
      dialect: 'none',
      remaining: null,
    });
  });
});

describe('RateLimit-Policy w', () => {
  // draft-ietf-httpapi-ratelimit-headers-10/-11 §3.1.3: "The time window MUST be a non-negative,
  // non-zero, Integer value". A `w=0` item breaks the draft as a negative `w` does, and is dropped
  // alone (ietf.ts's own rule); it must never become a window of 0 ms (a quota that comes back at once).
  it('w=0 is not a window of 0 ms', () => {
    const windows = readIetf(null, '"a";q=10;w=0, "b";q=6');
    expect(windows.some((w) => w.windowMs === 0)).toBe(false);
    expect(windows).toEqual([policy({ name: 'b', quota: 6 })]);
  });
});
