/**
 * README, "Client options": every call resolves with a `Response` or rejects with a `HeadwayError`
 * (`RateLimitedError` when the server asks for more than `maxRetryAfterMs`, carrying `retryAt`);
 * the hostile-headers row promises the same for absurd resets. A reset the header reader accepts
 * can lie beyond the range of a JavaScript `Date` (±8.64e15 ms): an epoch-ms `X-RateLimit-Reset`
 * of 16 digits, or the IETF `t` at the largest Structured Field integer (15 digits of seconds).
 * `RateLimitedError`'s message formats `retryAt` with `Date#toISOString`, which throws there.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { fakeFetch, runUntilSettled } from './fake-server.js';

const FAR_RESETS: Array<[string, Record<string, string>]> = [
  [
    'X-RateLimit-Reset 9999999999999999 (epoch ms)',
    { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '9999999999999999' },
  ],
  [
    'RateLimit t=999999999999999 (IETF)',
    { 'ratelimit-policy': '"d";q=10;w=1', ratelimit: '"d";r=0;t=999999999999999' },
  ],
];

describe('a 429 whose reset lies beyond the range of a Date', () => {
  it.each(FAR_RESETS)('%s: the call rejects with RateLimitedError', async (_name, headers) => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, () => ({ status: 429, headers }));
    const fetch = createFetch({ fetch: server.fetch, clock, random: () => 0 });
    const [result] = await runUntilSettled(clock, [fetch('http://127.0.0.1:9/a')]);
    expect(result).toMatchObject({ status: 'rejected', reason: { code: 'HEADWAY_RATE_LIMITED' } });
  });
});
