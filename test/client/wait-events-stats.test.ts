/**
 * Events and stats after a wait ends (second review pass): a retry that never left, and a wait
 * woken early by an unrelated answer.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { AbortError } from '../../src/errors.js';
import { fakeFetch, runUntilSettled } from './fake-server.js';

const URL_A = 'http://127.0.0.1:9/a';

describe('stats().retries: "Retries sent"', () => {
  it('does not count a retry whose backoff the caller aborted (it was never sent)', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, () => ({ status: 503 }));
    const fetch = createFetch({
      fetch: server.fetch,
      clock,
      random: () => 0.99,
      backoff: { baseMs: 1_000, capMs: 10_000 },
      retryBudget: { ratio: 0.2, minPerSecond: 0, ttlMs: 10_000 }, // a reserve of 1 retry, no accrual
    });
    const controller = new AbortController();
    const call = fetch(URL_A, { signal: controller.signal });
    await clock.advance(100); // the 503 came back at 0; the retry's backoff (~990 ms) runs
    expect(server.seen).toHaveLength(1);
    controller.abort(new Error('caller gave up'));
    await expect(call).rejects.toBeInstanceOf(AbortError);
    expect(server.seen).toHaveLength(1);
    const stats = fetch.stats()[0]!;
    expect(stats.retries).toBe(0);
    expect(stats.budgetLeft).toBe(1);
  });

  it('does not count a retry aborted while it waits for the gate its 429 closed', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, (_s, i) =>
      i === 0 ? { status: 429, headers: { 'retry-after': '5' } } : { status: 200 },
    );
    const fetch = createFetch({ fetch: server.fetch, clock, random: () => 0 });
    const controller = new AbortController();
    const call = fetch(URL_A, { signal: controller.signal });
    await clock.advance(1_000);
    controller.abort(new Error('caller gave up'));
    await expect(call).rejects.toBeInstanceOf(AbortError);
    expect(server.seen).toHaveLength(1);
    expect(fetch.stats()[0]!.retries).toBe(0);
  });
});

describe('onThrottle: once per wait', () => {
  it('a call held by a gate reports one throttle, not one more per unrelated answer that wakes it', async () => {
    const clock = new ManualClock();
    const seen: Array<{ at: number; url: string }> = [];
    // `/slow` answers 200 after 2 s; `/a` is refused once with a 5 s hint, then answered at once.
    let refused = false;
    const transport = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      const url = String(input);
      seen.push({ at: clock.now(), url });
      if (url.endsWith('/slow')) await clock.sleep(2_000, init?.signal ?? undefined);
      if (url.endsWith('/a') && !refused) {
        refused = true;
        return new Response('slow down', { status: 429, headers: { 'retry-after': '5' } });
      }
      return new Response('ok', { status: 200 });
    };
    const fetch = createFetch({ fetch: transport, clock, random: () => 0 });
    const events: Array<{ waitMs: number; reason: string }> = [];
    fetch.onThrottle((e) => events.push({ waitMs: e.waitMs, reason: e.reason }));
    const slow = fetch('http://127.0.0.1:9/slow'); // in flight from 0 to 2 000
    const limited = fetch('http://127.0.0.1:9/a'); // 429 at 0: its retry waits for the gate until 5 000
    const results = await runUntilSettled(clock, [slow, limited], 10);
    expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
    expect(seen.map((s) => s.at)).toEqual([0, 0, 5_000]);
    // One wait of 5 000 ms; the slow call's answer at 2 000 does not make it a second wait.
    expect(events).toEqual([{ waitMs: 5_000, reason: 'gate' }]);
    expect(fetch.stats()[0]!.waitedMs).toBe(5_000);
  });
});
