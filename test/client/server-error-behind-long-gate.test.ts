/**
 * A GET answered 500 is retried (README: "408/500/502/503/504 … for idempotent methods"). When its
 * retry then meets the key's gate, closed meanwhile by another call's `Retry-After` longer than
 * `maxRetryAfterMs`, the call fails fast with `RateLimitedError`, whose `response` is documented
 * as "the last response, if one was received (its body is unread)". This call did receive one —
 * its 500 — but the error carries none: the answer was cancelled before the retry's backoff, and
 * the caller is left with neither the 500 nor its body.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { fakeFetch, runUntilSettled } from './fake-server.js';

describe('a GET answered 500 while another call’s long Retry-After closes the key', () => {
  it('settles with its 500: returned, or carried by the error it rejects with', async () => {
    const clock = new ManualClock();
    // Both calls are in flight together; /a is answered 429 + Retry-After: 3600 (past the default
    // 60 s `maxRetryAfterMs`), /b is answered 500 a moment later.
    const server = fakeFetch(
      clock,
      (seen): { status: number; headers: Record<string, string> } =>
        seen.url.endsWith('/a')
          ? { status: 429, headers: { 'retry-after': '3600' } }
          : { status: 500, headers: { 'x-request-id': 'b-1' } },
      50,
    );
    const fetch = createFetch({ fetch: server.fetch, clock, random: () => 0.5 });

    const [a, b] = await runUntilSettled(clock, [
      fetch('http://127.0.0.1:9/a'),
      fetch('http://127.0.0.1:9/b'),
    ]);
    expect(a).toMatchObject({ status: 'rejected', reason: { code: 'HEADWAY_RATE_LIMITED' } });
    // /b's only attempt was answered 500; its retry never left.
    expect(server.seen.map((s) => s.url)).toEqual(['http://127.0.0.1:9/a', 'http://127.0.0.1:9/b']);

    const response =
      b!.status === 'fulfilled'
        ? b!.value
        : ((b as PromiseRejectedResult).reason as { response?: Response }).response;
    expect(response?.status).toBe(500);
    expect(response?.headers.get('x-request-id')).toBe('b-1');
    expect(await response?.text()).toBe('status 500');
  });
});
