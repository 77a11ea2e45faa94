/**
 * A `Retry-After` is always honoured and never jittered below: whatever the status it came on,
 * whatever else holds the key's gate, and a hint no longer than `maxRetryAfterMs` is waited out.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { fakeFetch, runUntilSettled } from './fake-server.js';

const URL_A = 'http://127.0.0.1:9/a';

describe('Retry-After on a retryable status other than 429/403/503', () => {
  it.each([500, 502, 504, 408])(
    '%i + Retry-After: 5 — the GET is retried no sooner than 5 s',
    async (status) => {
      const clock = new ManualClock();
      const server = fakeFetch(clock, (_s, i) =>
        i === 0 ? { status, headers: { 'retry-after': '5' } } : { status: 200 },
      );
      const fetch = createFetch({ fetch: server.fetch, clock, random: () => 0 });
      const delays: number[] = [];
      fetch.onRetry((e) => delays.push(e.delayMs));
      const [result] = await runUntilSettled(clock, [fetch(URL_A)], 10);
      expect(result).toMatchObject({ status: 'fulfilled', value: { status: 200 } });
      // The retry event announces the server's 5 s…
      expect(delays).toEqual([5000]);
      // …and the retry must not leave before them.
      expect(server.seen).toHaveLength(2);
      expect(server.seen[1]!.at).toBeGreaterThanOrEqual(5000);
    },
  );
});

describe('a retry hint under a longer outage backoff', () => {
  it('an answer that ends the outage does not open the gate before a Retry-After it holds', async () => {
    const clock = new ManualClock();
    const seen: Array<{ at: number; path: string }> = [];
    // Three calls in flight at once: /a answers 500 at 10 ms, /b 429 Retry-After: 1 at 20 ms,
    // /c 200 at 30 ms. Every later attempt is answered 200 at once.
    const plan: Record<string, [latency: number, status: number, headers: Record<string, string>]> = {
      '/a': [10, 500, {}],
      '/b': [20, 429, { 'retry-after': '1' }],
      '/c': [30, 200, {}],
    };
    const transport = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      const path = new URL(String(input)).pathname;
      seen.push({ at: clock.now(), path });
      const [latency, status, headers] = plan[path] ?? [0, 200, {}];
      plan[path] = [0, 200, {}];
      await clock.sleep(latency, init?.signal ?? undefined);
      return new Response('x', { status, headers });
    };
    // A long outage backoff (5–10 s), so the 1 s hint does not extend the gate the 500 closed.
    const fetch = createFetch({
      fetch: transport,
      clock,
      random: () => 0,
      rate: 100,
      burst: 10,
      backoff: { baseMs: 10_000, capMs: 10_000 },
    });
    const calls = ['/a', '/b', '/c'].map((p) => fetch(`http://127.0.0.1:9${p}`));
    await clock.advance(40);
    calls.push(fetch('http://127.0.0.1:9/d'));
    const results = await runUntilSettled(clock, calls, 10);
    expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
    // The 429 at 20 ms asked every call of the key to wait 1 s: nothing may go before 1020 ms.
    const after = seen.filter((s) => s.at > 20).map((s) => s.at);
    expect(after.length).toBeGreaterThan(0);
    expect(Math.min(...after)).toBeGreaterThanOrEqual(1020);
  });
});

describe('a hint of exactly maxRetryAfterMs', () => {
  it('is waited out, not failed with RateLimitedError because of the gate spread', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, (_s, i) =>
      i === 0 ? { status: 429, headers: { 'retry-after': '60' } } : { status: 200 },
    );
    // maxRetryAfterMs is 60 000 by default: a 60 s hint is not longer than it.
    const fetch = createFetch({ fetch: server.fetch, clock, random: () => 0.5 });
    const [result] = await runUntilSettled(clock, [fetch(URL_A)], 1000);
    expect(result).toMatchObject({ status: 'fulfilled', value: { status: 200 } });
    expect(server.seen).toHaveLength(2);
    expect(server.seen[1]!.at).toBeGreaterThanOrEqual(60_000);
  });
});

describe('a Retry-After too large for a safe integer of ms', () => {
  it('fails fast with RateLimitedError instead of being dropped and retried at once', async () => {
    const clock = new ManualClock();
    // Valid delay-seconds (1*DIGIT), ~3 billion years: longer than any maxRetryAfterMs.
    const server = fakeFetch(clock, () => ({ status: 429, headers: { 'retry-after': '99999999999999' } }));
    const fetch = createFetch({ fetch: server.fetch, clock, random: () => 0 });
    const [result] = await runUntilSettled(clock, [fetch(URL_A)], 10);
    expect(result).toMatchObject({ status: 'rejected', reason: { code: 'HEADWAY_RATE_LIMITED' } });
    expect(server.seen).toHaveLength(1);
  });
});
