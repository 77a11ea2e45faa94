/**
 * README (retries): "the server's hint is a floor […]; a hint too long to count is read as 2³¹ s,
 * RFC 9111". RFC 9110 §10.2.3's delay-seconds is `1*DIGIT`, unbounded, and RFC 9111 §1.2.2 reads a
 * delta-seconds greater than the greatest integer a recipient can represent as 2³¹. A `Retry-After`
 * of 4,096 digits is read so; one of 4,097 digits or 10,000 digits is a longer hint still, and must
 * not turn into no hint at all (the client would then retry a 429 at its own backoff).
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { isHeadwayError } from '../../src/errors.js';
import { LONGEST_DELAY_MS } from '../../src/signals/clock-skew.js';
import { readRateLimit } from '../../src/signals/read-rate-limit.js';
import { fakeFetch, runUntilSettled } from '../client/fake-server.js';

const read = (retryAfter: string) =>
  readRateLimit({ status: 429, headers: { 'retry-after': retryAfter } }, { receivedAt: 0 }).retryAfterMs;

describe('a Retry-After too long to count', () => {
  it.each([4_097, 10_000])('%i digits are read as 2³¹ s, not as no hint', (digits) => {
    expect(read('9'.repeat(digits))).toBe(LONGEST_DELAY_MS);
  });

  it('a 429 with a 10,000-digit Retry-After fails fast with RateLimitedError, not retried', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, () => ({ status: 429, headers: { 'retry-after': '9'.repeat(10_000) } }));
    const fetch = createFetch({ fetch: server.fetch, clock });
    const [result] = await runUntilSettled(clock, [fetch('http://127.0.0.1:9/')], 100);
    expect(server.seen).toHaveLength(1);
    expect(result?.status === 'rejected' && isHeadwayError(result.reason, 'HEADWAY_RATE_LIMITED')).toBe(true);
  });
});
