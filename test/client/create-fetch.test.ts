import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import {
  AbortError,
  DeadlineExceededError,
  InvalidOptionError,
  QueueFullError,
  RateLimitedError,
  RetryBudgetExhaustedError,
  TimeoutError,
} from '../../src/errors.js';
import { fakeFetch, runUntilSettled } from './fake-server.js';

const URL_A = 'http://127.0.0.1:9/a';
const ok = () => ({ status: 200 });

describe('createFetch: basics', () => {
  it('passes a request through and returns the response untouched', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, () => ({ status: 201, headers: { 'x-test': 'yes' } }));
    const fetch = createFetch({ fetch: server.fetch, clock });
    const res = await fetch(URL_A, { method: 'POST', body: 'x' });
    expect(res.status).toBe(201);
    expect(res.headers.get('x-test')).toBe('yes');
    expect(await res.text()).toBe('status 201');
    expect(server.seen).toHaveLength(1);
  });

  it('looks up globalThis.fetch at call time', async () => {
    const clock = new ManualClock();
    const fetch = createFetch({ clock });
    const original = globalThis.fetch;
    const server = fakeFetch(clock, ok);
    globalThis.fetch = server.fetch as typeof globalThis.fetch;
    try {
      expect((await fetch(URL_A)).status).toBe(200);
      expect(server.seen).toHaveLength(1);
    } finally {
      globalThis.fetch = original;
    }
  });

  it('validates options at construction with the one message shape', () => {
    expect(() => createFetch({ rate: -1 })).toThrow(
      new InvalidOptionError('rate', 'Expected `rate` to be a positive finite number, got `-1` (number)'),
    );
    expect(() => createFetch({ retries: 1.5 })).toThrow('Expected `retries` to be a non-negative integer');
    expect(() => createFetch({ burst: 5 })).toThrow('Expected `burst` to be set together with `rate`');
    expect(() => createFetch({ profile: 'fast' as 'batch' })).toThrow(
      "Expected `profile` to be one of 'default', 'batch'",
    );
    expect(() => createFetch({ quota: 'all' as 'spend' })).toThrow(
      "Expected `quota` to be one of 'spend', 'spread'",
    );
  });

  it('rejects a bad URL like fetch does, and an invalid cost with a typed error', async () => {
    const clock = new ManualClock();
    const fetch = createFetch({
      clock,
      fetch: fakeFetch(clock, ok).fetch,
      rate: 10,
      burst: 2,
      cost: () => 3,
    });
    await expect(fetch('not a url')).rejects.toBeInstanceOf(TypeError);
    await expect(fetch(URL_A)).rejects.toMatchObject({ code: 'HEADWAY_INVALID_COST' });
  });
});

describe('createFetch: local pacing', () => {
  it('waits exactly the computed time for a token, per key', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, ok);
    const fetch = createFetch({ fetch: server.fetch, clock, rate: 10, burst: 2 });
    const calls = [1, 2, 3, 4, 5].map(() => fetch(URL_A));
    const other = fetch('http://127.0.0.1:10/b');
    await runUntilSettled(clock, [...calls, other], 1);
    const timesA = server.seen.filter((s) => s.url === URL_A).map((s) => s.at);
    // One token of the burst stays unused as a cushion against network jitter.
    expect(timesA).toEqual([0, 100, 200, 300, 400]);
    expect(server.seen.find((s) => s.url.includes(':10/'))?.at).toBe(0);
  });

  it('serves higher queuePriority first among the calls behind the head of the line', async () => {
    const clock = new ManualClock();
    const order: string[] = [];
    const server = fakeFetch(clock, (seen) => {
      order.push(seen.url);
      return ok();
    });
    const fetch = createFetch({ fetch: server.fetch, clock, rate: 10, burst: 1 });
    const calls = [
      fetch(`${URL_A}?1`),
      fetch(`${URL_A}?head`),
      fetch(`${URL_A}?low`),
      fetch(`${URL_A}?high`, { queuePriority: 5 }),
    ];
    await runUntilSettled(clock, calls, 1);
    // `head` already waits for the pacer at the head of the line; `high` passes `low`.
    expect(order.map((u) => u.split('?')[1])).toEqual(['1', 'head', 'high', 'low']);
  });

  it('bounds the queue per key with QueueFullError', async () => {
    const clock = new ManualClock();
    const fetch = createFetch({ fetch: fakeFetch(clock, ok).fetch, clock, rate: 1, burst: 1, maxQueue: 2 });
    const calls = [fetch(URL_A), fetch(URL_A), fetch(URL_A)];
    const refused = fetch(URL_A);
    await expect(refused).rejects.toBeInstanceOf(QueueFullError);
    await expect(refused).rejects.toMatchObject({ code: 'HEADWAY_QUEUE_FULL', key: 'http://127.0.0.1:9' });
    const results = await runUntilSettled(clock, calls, 100);
    expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
  });

  it('limits concurrency per key', async () => {
    const clock = new ManualClock();
    let inFlight = 0;
    let peak = 0;
    const slow = async () => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await clock.sleep(50);
      inFlight--;
      return new Response('ok');
    };
    const fetch = createFetch({ fetch: slow, clock, maxConcurrent: 2 });
    const results = await runUntilSettled(
      clock,
      [1, 2, 3, 4, 5].map(() => fetch(URL_A)),
      5,
    );
    expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
    expect(peak).toBe(2);
  });
});

describe('createFetch: obeying the server', () => {
  it('a 429 with Retry-After closes the whole key until then', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, (_seen, i) =>
      i === 0 ? { status: 429, headers: { 'retry-after': '2' } } : { status: 200 },
    );
    const fetch = createFetch({ fetch: server.fetch, clock, random: () => 0 });
    const first = fetch(URL_A);
    await clock.advance(1);
    const queued = Array.from({ length: 50 }, () => fetch(URL_A));
    const results = await runUntilSettled(clock, [first, ...queued], 10);
    expect(results.every((r) => r.status === 'fulfilled' && r.value.status === 200)).toBe(true);
    const after = server.seen.slice(1).map((s) => s.at);
    expect(after).toHaveLength(51);
    expect(Math.min(...after)).toBeGreaterThanOrEqual(2000);
  });

  it('a shorter hint never shortens a longer pause', async () => {
    const clock = new ManualClock();
    const hints = ['5', '1'];
    const server = fakeFetch(clock, (_s, i) =>
      i < 2 ? { status: 429, headers: { 'retry-after': hints[i]! } } : { status: 200 },
    );
    const fetch = createFetch({ fetch: server.fetch, clock, random: () => 0, rate: 100, burst: 2 });
    const results = await runUntilSettled(clock, [fetch(URL_A), fetch(URL_A)], 10);
    expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
    expect(server.seen.slice(2).every((s) => s.at >= 5000)).toBe(true);
  });

  it('fails fast with RateLimitedError when the hint exceeds maxRetryAfterMs', async () => {
    const clock = new ManualClock(0, 1_000_000);
    const server = fakeFetch(clock, () => ({ status: 429, headers: { 'retry-after': '120' } }));
    const fetch = createFetch({ fetch: server.fetch, clock });
    const error = await fetch(URL_A).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error).toMatchObject({ retryAfterMs: 120_000, retryAt: 1_120_000, code: 'HEADWAY_RATE_LIMITED' });
    // The gate is closed for everyone: a new call fails fast too, without reaching the server.
    await expect(fetch(URL_A)).rejects.toBeInstanceOf(RateLimitedError);
    expect(server.seen).toHaveLength(1);
  });

  it('by default waits out a minute and a little (a reset stated to the second, rounded up), and fails fast past 65 s', async () => {
    // README (options): `maxRetryAfterMs` "`65_000` … a minute and a little, so a spent per-minute
    // window whose reset is stated to the second is waited out". Until 2026-12-06 it was 60 s.
    const clock = new ManualClock();
    const hinted = (seconds: string) =>
      fakeFetch(clock, (_seen, i) =>
        i === 0 ? { status: 429, headers: { 'retry-after': seconds } } : { status: 200 },
      );
    const minute = hinted('61');
    const [waited] = await runUntilSettled(clock, [createFetch({ fetch: minute.fetch, clock })(URL_A)], 10);
    expect(waited).toMatchObject({ status: 'fulfilled', value: { status: 200 } });
    expect(minute.seen[1]!.at - minute.seen[0]!.at).toBeGreaterThanOrEqual(61_000);
    const longer = hinted('66');
    const error = await createFetch({ fetch: longer.fetch, clock })(URL_A).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(longer.seen).toHaveLength(1);
  });

  it('fails fast with RateLimitedError naming a window that stays exhausted beyond maxRetryAfterMs', async () => {
    const clock = new ManualClock();
    // A daily cap of 1,000 with one left: the answer to the next call says none is left for 2 hours.
    const server = fakeFetch(clock, (_seen, i) => ({
      status: 200,
      headers: {
        'ratelimit-policy': '"day";q=1000;w=86400',
        ratelimit: `"day";r=${Math.max(0, 1 - i)};t=7200`,
      },
    }));
    const fetch = createFetch({ fetch: server.fetch, clock });
    await runUntilSettled(clock, [fetch(URL_A), fetch(URL_A)], 10);
    const error = await fetch(URL_A).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error).toMatchObject({ window: 'requests:day', code: 'HEADWAY_RATE_LIMITED' });
    expect((error as RateLimitedError).message).toContain('window requests:day');
    expect(server.seen).toHaveLength(2);
  });

  it('the batch profile waits out a 2-minute hint instead', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, (_s, i) =>
      i === 0 ? { status: 429, headers: { 'retry-after': '120' } } : ok(),
    );
    const fetch = createFetch({ fetch: server.fetch, clock, profile: 'batch', random: () => 0 });
    const [result] = await runUntilSettled(clock, [fetch(URL_A)], 1000);
    expect(result).toMatchObject({ status: 'fulfilled' });
    expect(server.seen[1]!.at).toBeGreaterThanOrEqual(120_000);
  });

  it('learns the rate from an IETF policy and never overruns remaining', async () => {
    const clock = new ManualClock();
    let tokens = 5;
    let last = 0;
    const server = fakeFetch(
      clock,
      (seen) => {
        tokens = Math.min(5, tokens + ((seen.at - last) * 10) / 1000);
        last = seen.at;
        if (tokens < 1) return { status: 429, headers: { 'retry-after': '1' } as Record<string, string> };
        tokens -= 1;
        return {
          status: 200,
          headers: { 'ratelimit-policy': '"p";q=10;w=1', ratelimit: `"p";r=${Math.floor(tokens)};t=1` },
        };
      },
      5,
    );
    const fetch = createFetch({ fetch: server.fetch, clock });
    const calls = Array.from({ length: 30 }, () => fetch(URL_A));
    const results = await runUntilSettled(clock, calls, 5);
    expect(results.every((r) => r.status === 'fulfilled' && r.value.status === 200)).toBe(true);
    expect(server.seen).toHaveLength(30);
    const stats = fetch.stats()[0]!;
    expect(stats.rateLimited).toBe(0);
    expect(stats.learned).toMatchObject({ rate: 10, source: 'policy' });
    // 30 calls at 10/s with a burst of 5: no faster than (30 − 5) / 10 s.
    expect(server.seen.at(-1)!.at).toBeGreaterThanOrEqual(2400);
  });
});

describe('createFetch: retries', () => {
  it('retries 503 for GET with jittered backoff, but not for POST', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, (_s, i) => (i % 2 === 0 ? { status: 503 } : ok()));
    const fetch = createFetch({ fetch: server.fetch, clock, random: () => 0.5 });
    const [get] = await runUntilSettled(clock, [fetch(URL_A)], 10);
    expect(get).toMatchObject({ status: 'fulfilled', value: { status: 200 } });
    const [post] = await runUntilSettled(clock, [fetch(URL_A, { method: 'POST', body: 'x' })], 10);
    expect(post).toMatchObject({ status: 'fulfilled', value: { status: 503 } });
    expect(server.seen).toHaveLength(3);
  });

  it('retries a POST with an Idempotency-Key, and a 429 for any method', async () => {
    const clock = new ManualClock();
    const statuses = [503, 200, 429, 200];
    const server = fakeFetch(clock, (_s, i) => ({ status: statuses[i]!, headers: { 'retry-after': '0' } }));
    const fetch = createFetch({ fetch: server.fetch, clock });
    const keyed = fetch(URL_A, { method: 'POST', body: 'x', headers: { 'Idempotency-Key': 'k1' } });
    const results = await runUntilSettled(clock, [keyed], 10);
    expect(results[0]).toMatchObject({ status: 'fulfilled', value: { status: 200 } });
    const plain = await runUntilSettled(clock, [fetch(URL_A, { method: 'POST', body: 'y' })], 10);
    expect(plain[0]).toMatchObject({ status: 'fulfilled', value: { status: 200 } });
    expect(server.seen).toHaveLength(4);
  });

  it('never retries a stream body', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, () => ({ status: 429, headers: { 'retry-after': '0' } }));
    const fetch = createFetch({ fetch: server.fetch, clock });
    const body = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode('x'));
        c.close();
      },
    });
    const res = await fetch(URL_A, { method: 'PUT', body, duplex: 'half' } as RequestInit);
    expect(res.status).toBe(429);
    expect(server.seen).toHaveLength(1);
  });

  it('gives up after `retries` and returns the last response', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, () => ({ status: 500 }));
    const fetch = createFetch({ fetch: server.fetch, clock, retries: 3, random: () => 0 });
    const reasons: string[] = [];
    fetch.onGiveUp((e) => reasons.push(e.reason));
    const [res] = await runUntilSettled(clock, [fetch(URL_A)], 10);
    expect(res).toMatchObject({ status: 'fulfilled', value: { status: 500 } });
    expect(server.seen).toHaveLength(4);
    expect(reasons).toEqual(['retries-exhausted']);
  });

  it('retries network errors for idempotent calls, then rethrows the network error', async () => {
    const clock = new ManualClock();
    const boom = new TypeError('fetch failed');
    const server = fakeFetch(clock, () => boom);
    const fetch = createFetch({ fetch: server.fetch, clock, random: () => 0 });
    const [get] = await runUntilSettled(clock, [fetch(URL_A)], 10);
    expect(get).toMatchObject({ status: 'rejected', reason: boom });
    expect(server.seen).toHaveLength(3);
    const [post] = await runUntilSettled(clock, [fetch(URL_A, { method: 'POST' })], 10);
    expect(post).toMatchObject({ status: 'rejected', reason: boom });
    expect(server.seen).toHaveLength(4);
  });

  it('stops at the retry budget: returns the last response, or throws by option', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, () => ({ status: 429, headers: { 'retry-after': '0' } }));
    const retryBudget = { ratio: 0, minPerSecond: 0, ttlMs: 1000 };
    const fetch = createFetch({ fetch: server.fetch, clock, retryBudget, retries: 5 });
    const [first] = await runUntilSettled(clock, [fetch(URL_A)], 1);
    expect(first).toMatchObject({ status: 'fulfilled', value: { status: 429 } });
    expect(server.seen).toHaveLength(2); // one retry: the reserve of 1
    const throwing = createFetch({
      fetch: server.fetch,
      clock,
      retryBudget,
      retries: 1,
      onBudgetExhausted: 'throw',
    });
    const [a] = await runUntilSettled(clock, [throwing(URL_A)], 1);
    expect(a?.status).toBe('fulfilled');
    const [b] = await runUntilSettled(clock, [throwing(URL_A)], 1);
    expect(b).toMatchObject({ status: 'rejected', reason: { code: 'HEADWAY_RETRY_BUDGET_EXHAUSTED' } });
    expect((b as PromiseRejectedResult).reason).toBeInstanceOf(RetryBudgetExhaustedError);
    expect((b as PromiseRejectedResult).reason.facts).toMatchObject({ attempts: 1, statuses: [429] });
  });

  it('emits retry and rate-limited events, and unsubscribes', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, (_s, i) =>
      i === 0 ? { status: 429, headers: { 'retry-after': '1' } } : ok(),
    );
    const fetch = createFetch({ fetch: server.fetch, clock, random: () => 0 });
    const seen: string[] = [];
    const off = fetch.onRetry((e) => seen.push(`retry ${e.status} ${e.delayMs} ${e.reason}`));
    fetch.onRateLimited((e) => seen.push(`limited ${e.retryAfterMs}`));
    fetch.onThrottle((e) => seen.push(`throttle ${e.reason}`));
    await runUntilSettled(clock, [fetch(URL_A)], 10);
    expect(seen.slice(0, 3)).toEqual(['limited 1000', 'retry 429 1000 rate-limited', 'throttle gate']);
    off();
    const stats = fetch.stats()[0]!;
    expect(stats).toMatchObject({ key: 'http://127.0.0.1:9', sent: 2, rateLimited: 1, retries: 1 });
    expect(stats.waitedMs).toBeGreaterThanOrEqual(1000);
  });
});

describe('createFetch: outages', () => {
  it('holds calls behind one probe at a time while the server is down', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, (seen) => (seen.at < 1000 ? { status: 503 } : ok()), 2);
    const fetch = createFetch({ fetch: server.fetch, clock, random: () => 0.5 });
    const calls: Array<Promise<Response>> = [];
    for (let t = 0; t < 3000; t += 10) {
      calls.push(fetch(URL_A));
      await clock.advance(10);
    }
    const results = await runUntilSettled(clock, calls, 10);
    const succeeded = results.filter((r) => r.status === 'fulfilled' && r.value.status === 200).length;
    expect(succeeded / calls.length).toBeGreaterThanOrEqual(0.99);
    expect(server.seen.length / calls.length).toBeLessThanOrEqual(1.1);
    // During the outage at most one request is in flight at a time.
    const during = server.seen.filter((s) => s.at > 0 && s.at < 1000);
    for (let i = 1; i < during.length; i++)
      expect(during[i]!.at - during[i - 1]!.at).toBeGreaterThanOrEqual(2);
  });
});

describe('createFetch: bounds', () => {
  it('fails at once when a projected wait is beyond the deadline', async () => {
    const clock = new ManualClock();
    const fetch = createFetch({
      fetch: fakeFetch(clock, ok).fetch,
      clock,
      rate: 1,
      burst: 1,
      deadlineMs: 500,
    });
    await fetch(URL_A);
    const error = await fetch(URL_A).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeadlineExceededError);
    expect(error).toMatchObject({ code: 'HEADWAY_DEADLINE_EXCEEDED', neededMs: 1000 });
  });

  it('aborts a pacing wait at once and leaves no timer behind', async () => {
    const clock = new ManualClock();
    const fetch = createFetch({ fetch: fakeFetch(clock, ok).fetch, clock, rate: 1, burst: 1 });
    await fetch(URL_A);
    const controller = new AbortController();
    const waiting = fetch(URL_A, { signal: controller.signal });
    await clock.advance(10);
    const reason = new Error('caller gave up');
    controller.abort(reason);
    await expect(waiting).rejects.toBeInstanceOf(AbortError);
    await expect(waiting).rejects.toMatchObject({
      name: 'AbortError',
      code: 'HEADWAY_ABORTED',
      cause: reason,
    });
    expect(clock.pending).toBe(0);
  });

  it('times out one attempt with TimeoutError after retries', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, ok, 5000);
    const fetch = createFetch({ fetch: server.fetch, clock, timeoutMs: 100, retries: 1, random: () => 0 });
    const [res] = await runUntilSettled(clock, [fetch(URL_A)], 10);
    expect(res).toMatchObject({ status: 'rejected' });
    expect((res as PromiseRejectedResult).reason).toBeInstanceOf(TimeoutError);
    expect(server.seen).toHaveLength(2);
    expect(clock.pending).toBe(0);
  });
});
