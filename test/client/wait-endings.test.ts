/**
 * How calls leave a key's line (second review pass): a deadline that passes while a call waits
 * in the line, and the keys kept beyond MAX_KEYS.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { DeadlineExceededError } from '../../src/errors.js';
import { fakeFetch, runUntilSettled } from './fake-server.js';

const URL_A = 'http://127.0.0.1:9/a';

describe('deadlineMs while a call waits in the line', () => {
  it('rejects with DeadlineExceededError when the head waits for an answer (maxConcurrent)', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, () => ({ status: 200 }), 5_000);
    const fetch = createFetch({ fetch: server.fetch, clock, maxConcurrent: 1 });
    const first = fetch(URL_A);
    // Waits for the first call's answer (an unbounded wait: left to the deadline timer).
    const second = fetch(URL_A, { deadlineMs: 1_000 });
    const [, result] = await runUntilSettled(clock, [first, second], 100);
    expect(result).toMatchObject({ status: 'rejected' });
    const reason = (result as PromiseRejectedResult).reason;
    expect(reason).toBeInstanceOf(DeadlineExceededError);
    expect(server.seen).toHaveLength(1);
  });

  it('rejects with DeadlineExceededError when the call waits behind the head', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, () => ({ status: 200 }), 5_000);
    const fetch = createFetch({ fetch: server.fetch, clock, maxConcurrent: 1 });
    const first = fetch(URL_A);
    const head = fetch(URL_A);
    const behind = fetch(URL_A, { deadlineMs: 1_000 });
    const results = await runUntilSettled(clock, [first, head, behind], 100);
    expect(results[2]).toMatchObject({ status: 'rejected' });
    expect((results[2] as PromiseRejectedResult).reason).toBeInstanceOf(DeadlineExceededError);
  });
});

describe('MAX_KEYS (10 000 keys kept)', () => {
  it('a new key beyond 10 000 busy keys keeps its lane: maxConcurrent still holds for it', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, () => ({ status: 200 }), 1_000);
    const fetch = createFetch({
      fetch: server.fetch,
      clock,
      key: (req) => req.url.pathname,
      maxConcurrent: 1,
    });
    // 10 000 keys, each with a call in flight: none of them is idle, none may be forgotten.
    const busy: Array<Promise<Response>> = [];
    for (let i = 0; i < 10_000; i++) busy.push(fetch(`http://127.0.0.1:9/k${i}`));
    // Three calls of one new key, `maxConcurrent: 1`: one goes, two wait for its answer.
    const extra = [1, 2, 3].map(() => fetch('http://127.0.0.1:9/new'));
    await clock.advance(0);
    const sentNow = server.seen.filter((s) => s.url.endsWith('/new'));
    expect(sentNow).toHaveLength(1);
    const results = await runUntilSettled(clock, [...busy, ...extra], 500);
    expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
    // The key is in stats() as every key seen so far (fewer than 10 000 + 1 would be kept only if idle).
    expect(fetch.stats().some((s) => s.key === '/new')).toBe(true);
    // 10 000 calls on the manual clock: CPU work that took up to 1.6 s on CI's two cores beside the
    // other unit files and 2.9 s on half a core, against vitest's 5 s default (a bound on a hang).
  }, 60_000);

  it('a key whose call sleeps in its retry backoff is not forgotten: the retry and a new call share maxConcurrent', async () => {
    const clock = new ManualClock();
    // /x: a 429 without a hint first (a retry after its own backoff), then slow answers.
    const server = fakeFetch(clock, (_seen, i) => (i === 0 ? { status: 429 } : { status: 200 }));
    const slow = fakeFetch(clock, () => ({ status: 200 }), 1_000);
    const fetch = createFetch({
      fetch: (input, init) =>
        String(input).endsWith('/x') && server.seen.length > 0
          ? slow.fetch(input, init)
          : server.fetch(input, init),
      clock,
      random: () => 0.99,
      backoff: { baseMs: 1_000, capMs: 10_000 },
      key: (req) => req.url.pathname,
      maxConcurrent: 1,
    });
    const retried = fetch('http://127.0.0.1:9/x'); // 429 at 0, retry after ~990 ms of backoff
    await clock.advance(10);
    // 10 000 other keys, each answered at once: the key table overflows while /x's call backs off.
    const others: Array<Promise<Response>> = [];
    for (let i = 0; i < 10_000; i++) others.push(fetch(`http://127.0.0.1:9/k${i}`));
    await Promise.all(others);
    const second = fetch('http://127.0.0.1:9/x'); // in flight from 10 ms to 1 010 ms
    const results = await runUntilSettled(clock, [retried, second], 10);
    expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
    const xs = slow.seen.map((s) => s.at);
    // The retry must wait for the second call's answer (maxConcurrent: 1): sent at 1 010, not at ~1 000.
    expect(xs).toHaveLength(2);
    expect(xs[1]! - xs[0]!).toBeGreaterThanOrEqual(1_000);
  }, 60_000);
});
