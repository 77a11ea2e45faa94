/**
 * Jira Cloud's 429: "429 responses may be accompanied by Retry-After and X-RateLimit-Reset
 * headers. … X-RateLimit-Reset … provides the timestamp (in ISO 8601 format) when the rate limit
 * will reset … It's provided in the format: yyyy-MM-ddTHH:mmZ."
 * (https://developer.atlassian.com/cloud/jira/platform/rate-limiting/, quoted in
 * https://jira.atlassian.com/browse/JRACLOUD-69262; observed live as `2026-03-26T16:00Z`).
 *
 * Rule 6 reads `X-RateLimit-Reset` as a number, a Go duration, an RFC 3339 time or an HTTP-date;
 * RFC 3339 requires seconds, so Atlassian's minute-precision ISO 8601 time is dropped: the reset
 * is lost, and a 429 that carries only this reset gets no retry delay.
 */
import { describe, expect, it } from 'vitest';
import { read } from './helpers.js';

// helpers.AT is 2025-01-01T00:00:00Z: the reset below is one minute later.
const JIRA_429 = {
  'X-RateLimit-Limit': '100',
  'X-RateLimit-Remaining': '0',
  'X-RateLimit-Reset': '2025-01-01T00:01Z',
  'X-RateLimit-NearLimit': 'true',
};

describe('Atlassian (Jira Cloud): X-RateLimit-Reset as yyyy-MM-ddTHH:mmZ', () => {
  it('reads the reset one minute away, beside Retry-After', () => {
    const signal = read(429, { ...JIRA_429, 'Retry-After': '60' });
    expect(signal).toMatchObject({ dialect: 'x-ratelimit', limit: 100, remaining: 0, retryAfterMs: 60_000 });
    expect(signal.resetInMs).toBe(60_000);
  });

  it('a 429 with the reset alone waits for it (rule 5, step 3)', () => {
    const signal = read(429, JIRA_429);
    expect(signal.retryAfterMs).toBe(60_000);
  });
});
