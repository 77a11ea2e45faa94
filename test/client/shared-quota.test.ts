import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { memoryStore } from '../../src/stores/memory.js';
import type { RateLimitStore } from '../../src/stores/store.js';
import { fakeFetch, runUntilSettled } from './fake-server.js';

const URL_A = 'http://127.0.0.1:9/a';

/** A store that can be switched to failing (rejecting) or hanging, around a working memory store. */
function switchableStore(clock: ManualClock) {
  const inner = memoryStore({ clock });
  const state = { mode: 'up' as 'up' | 'down' | 'hang', calls: 0 };
  const guard = <T>(op: () => Promise<T>): Promise<T> => {
    state.calls++;
    if (state.mode === 'down') return Promise.reject(new Error('ECONNREFUSED'));
    if (state.mode === 'hang') return new Promise<T>(() => {});
    return op();
  };
  const store: RateLimitStore = {
    take: (key, limit, cost) => guard(() => inner.take(key, limit, cost)),
    reserve: (key, limit, cost) => guard(() => inner.reserve(key, limit, cost)),
    holdGate: (key, ms) => guard(() => inner.holdGate(key, ms)),
    gateWait: (key) => guard(() => inner.gateWait(key)),
  };
  return { store, state };
}

describe('createFetch with a store', () => {
  it('two clients on one store share one bucket: together they keep the rate', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, () => ({ status: 200 }));
    const store = memoryStore({ clock });
    const a = createFetch({ fetch: server.fetch, clock, store, rate: 10, burst: 4 });
    const b = createFetch({ fetch: server.fetch, clock, store, rate: 10, burst: 4 });
    const calls = Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b)(URL_A));
    await runUntilSettled(clock, calls, 5);
    const times = server.seen.map((s) => s.at);
    // Shared burst 4 less a cushion of 2, then one every 100 ms between both clients.
    expect(times.filter((t) => t === 0)).toHaveLength(2);
    expect(Math.max(...times)).toBeGreaterThanOrEqual(800);
  });

  it('spaces bookings at the rate: a burst of 2, not the whole burst, so the server keeps its own', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, () => ({ status: 200 }));
    const fetch = createFetch({
      fetch: server.fetch,
      clock,
      store: memoryStore({ clock }),
      rate: 100,
      burst: 20,
    });
    await runUntilSettled(
      clock,
      Array.from({ length: 8 }, () => fetch(URL_A)),
      5,
    );
    expect(server.seen.map((s) => s.at)).toEqual([0, 0, 10, 20, 30, 40, 50, 60]);
  });

  it('a 429 seen by one client closes the shared gate for the other', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, (_s, i) =>
      i === 0 ? { status: 429, headers: { 'retry-after': '3' } } : { status: 200 },
    );
    const store = memoryStore({ clock });
    const a = createFetch({ fetch: server.fetch, clock, store, rate: 100, burst: 10, random: () => 0 });
    const b = createFetch({ fetch: server.fetch, clock, store, rate: 100, burst: 10, random: () => 0 });
    const first = a(URL_A);
    await clock.advance(1);
    const other = b(URL_A);
    await runUntilSettled(clock, [first, other], 10);
    expect(server.seen[1]!.at).toBeGreaterThanOrEqual(3000);
    expect(server.seen[2]!.at).toBeGreaterThanOrEqual(3000);
  });

  it('falls back to rate / expectedWorkers while the store is down or hangs, and recovers', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, () => ({ status: 200 }));
    const { store, state } = switchableStore(clock);
    const fetch = createFetch({ fetch: server.fetch, clock, store, rate: 40, burst: 4, expectedWorkers: 4 });
    state.mode = 'down';
    const down = await runUntilSettled(
      clock,
      Array.from({ length: 5 }, () => fetch(URL_A)),
      5,
    );
    expect(down.every((r) => r.status === 'fulfilled')).toBe(true);
    // Fallback: 10/s with a burst of 1, starting empty → one call every 100 ms.
    expect(server.seen.map((s) => s.at)).toEqual([100, 200, 300, 400, 500]);
    expect(fetch.stats()[0]!.shared).toMatchObject({ degraded: true });

    state.mode = 'hang';
    await clock.advance(1000);
    const hung = await runUntilSettled(clock, [fetch(URL_A)], 10);
    expect(hung[0]!.status).toBe('fulfilled');

    state.mode = 'up';
    await clock.advance(1000);
    const callsBefore = state.calls;
    await runUntilSettled(clock, [fetch(URL_A)], 5);
    expect(state.calls).toBeGreaterThan(callsBefore);
    expect(fetch.stats()[0]!.shared).toMatchObject({ degraded: false });
  });

  it('keeps at most its share of the burst in flight while the server is slow', async () => {
    const clock = new ManualClock();
    let inFlight = 0;
    let peak = 0;
    const slow = async () => {
      peak = Math.max(peak, ++inFlight);
      await clock.sleep(1000);
      inFlight--;
      return new Response('ok');
    };
    const fetch = createFetch({
      fetch: slow,
      clock,
      store: memoryStore({ clock }),
      rate: 1000,
      burst: 16,
      expectedWorkers: 4,
    });
    const results = await runUntilSettled(
      clock,
      Array.from({ length: 6 }, () => fetch(URL_A)),
      10,
    );
    expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
    // The burst less a margin of 4, shared by 4 workers: three at a time, though the shared bucket
    // would allow more.
    expect(peak).toBe(3);
  });

  it('asks for the gate and the booking together: one store round trip per call', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, () => ({ status: 200 }));
    const inner = memoryStore({ clock });
    const slowly = <T>(op: () => Promise<T>) => clock.sleep(10).then(op);
    const store: RateLimitStore = {
      take: (key, limit, cost) => slowly(() => inner.take(key, limit, cost)),
      reserve: (key, limit, cost) => slowly(() => inner.reserve(key, limit, cost)),
      holdGate: (key, ms) => slowly(() => inner.holdGate(key, ms)),
      gateWait: (key) => slowly(() => inner.gateWait(key)),
    };
    const fetch = createFetch({ fetch: server.fetch, clock, store, rate: 100, burst: 20 });
    await runUntilSettled(clock, [fetch(URL_A)], 5);
    expect(server.seen.map((s) => s.at)).toEqual([10]);
  });

  it('one slow store answer sends one call to the fallback; two in a row mark the store down', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, () => ({ status: 200 }));
    const { store, state } = switchableStore(clock);
    const fetch = createFetch({ fetch: server.fetch, clock, store, rate: 40, burst: 8, expectedWorkers: 4 });
    state.mode = 'hang';
    const slowOnce = fetch(URL_A);
    await clock.advance(1000); // the store's deadline passes: this call books from the fallback
    state.mode = 'up';
    await runUntilSettled(clock, [slowOnce], 5);
    expect(fetch.stats()[0]!.shared).toMatchObject({ degraded: false, failures: 1 });

    state.mode = 'hang';
    const slow = [fetch(URL_A), fetch(URL_A)];
    await runUntilSettled(clock, slow, 10);
    expect(fetch.stats()[0]!.shared).toMatchObject({ degraded: true });
  });

  it('gives a booking back when the call is aborted while it waits for its units', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, () => ({ status: 200 }));
    const fetch = createFetch({
      fetch: server.fetch,
      clock,
      store: memoryStore({ clock }),
      rate: 10,
      burst: 20,
    });
    const controller = new AbortController();
    const calls = [fetch(URL_A), fetch(URL_A), fetch(URL_A, { signal: controller.signal }), fetch(URL_A)];
    await clock.advance(50);
    controller.abort();
    const results = await runUntilSettled(clock, calls, 5);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(fetch.stats()[0]).toMatchObject({ sent: 3, inFlight: 0 });
  });

  it('a booked call that finds the gate closed when its units are due waits for the gate', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, (_s, i) =>
      i === 0 ? { status: 429, headers: { 'retry-after': '2' } } : { status: 200 },
    );
    const fetch = createFetch({
      fetch: server.fetch,
      clock,
      store: memoryStore({ clock }),
      rate: 10,
      burst: 20,
      random: () => 0,
    });
    const results = await runUntilSettled(
      clock,
      Array.from({ length: 4 }, () => fetch(URL_A)),
      10,
    );
    expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
    const times = server.seen.map((s) => s.at);
    // The 429 at 0 ms closes the gate for 2 s: the calls booked for 100 and 200 ms wait it out.
    expect(times[0]).toBe(0);
    expect(times.slice(1).filter((t) => t < 2000)).toEqual([0]);
  });
});

/**
 * A token-bucket server on the manual clock (`rate`/s, burst `burst`) that states its policy
 * (IETF `RateLimit-Policy`) and refuses with `retry-after` when the bucket is empty.
 */
function bucketServer(clock: ManualClock, rate: number, burst: number, latencyMs = 5) {
  let tokens = burst;
  let last = 0;
  let refused = 0;
  const server = fakeFetch(
    clock,
    (seen) => {
      tokens = Math.min(burst, tokens + ((seen.at - last) * rate) / 1000);
      last = seen.at;
      if (tokens < 1) {
        refused++;
        return { status: 429, headers: { 'retry-after': '1' } as Record<string, string> };
      }
      tokens -= 1;
      return {
        status: 200,
        headers: { 'ratelimit-policy': `"p";q=${rate};w=1`, ratelimit: `"p";r=${Math.floor(tokens)};t=1` },
      };
    },
    latencyMs,
  );
  return { ...server, refused: () => refused };
}

describe('createFetch with a store and no rate: the fleet learns together', () => {
  /** Two unconfigured clients, 60 calls between them, against a 20/s bucket with a burst of 8. */
  async function twoClients(shared: boolean) {
    const clock = new ManualClock();
    const server = bucketServer(clock, 20, 8);
    const store = shared ? memoryStore({ clock }) : undefined;
    const make = () =>
      createFetch({
        fetch: server.fetch,
        clock,
        random: () => 0,
        ...(store ? { store, expectedWorkers: 2 } : {}),
      });
    const [a, b] = [make(), make()];
    const calls = Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b)(URL_A));
    const results = await runUntilSettled(clock, calls, 5);
    return { results, server, clients: [a, b], lastAt: Math.max(...server.seen.map((s) => s.at)) };
  }

  it('two unconfigured clients on one store learn the rate and pace as one client', async () => {
    const { results, server, clients, lastAt } = await twoClients(true);
    expect(results.every((r) => r.status === 'fulfilled' && r.value.status === 200)).toBe(true);
    // Before their first answers both send their first window unbooked: at most the burst is
    // refused (its 1 s retry-after gates both), then they book one bucket at the learned rate.
    expect(server.refused()).toBeLessThanOrEqual(8);
    // Ten go before the gate (the eleventh, booked before the refusal and due after it, now asks
    // the shared gate again and waits for it instead of going through).
    expect(server.seen.filter((s) => s.at >= 1000)).toHaveLength(60 + server.refused() - 10);
    expect(lastAt).toBeLessThanOrEqual(1000 + ((60 - 8) / 20) * 1000 * 1.1);
    for (const client of clients)
      expect(client.stats()[0]!.learned).toMatchObject({ rate: 20, source: 'policy' });
  });

  it('without the store, the same two clients pace apart and are refused more', async () => {
    const alone = await twoClients(false);
    const together = await twoClients(true);
    expect(alone.server.refused()).toBeGreaterThan(together.server.refused());
  });

  it("one client's 429 closes the shared gate for the other before either learned a rate", async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, (_s, i) =>
      i === 0 ? { status: 429, headers: { 'retry-after': '3' } } : { status: 200 },
    );
    const store = memoryStore({ clock });
    const a = createFetch({ fetch: server.fetch, clock, store, random: () => 0 });
    const b = createFetch({ fetch: server.fetch, clock, store, random: () => 0 });
    const first = a(URL_A);
    await clock.advance(1);
    const other = b(URL_A);
    await runUntilSettled(clock, [first, other], 10);
    expect(server.seen.slice(1).map((s) => s.at >= 3000)).toEqual([true, true]);
  });

  it('the second client books from the bucket the first drained, once its first answer states the policy', async () => {
    const clock = new ManualClock();
    const server = bucketServer(clock, 10, 20, 0);
    const store = memoryStore({ clock });
    const a = createFetch({ fetch: server.fetch, clock, store, random: () => 0 });
    const b = createFetch({ fetch: server.fetch, clock, store, random: () => 0 });
    // Each learns 10/s from its first answer (sent before anything was learned: no booking).
    await runUntilSettled(clock, [a(URL_A), b(URL_A)], 1);
    // `a` books 10 calls: the shared bucket (a burst of 2, then one per 100 ms) is booked to 800 ms.
    const aCalls = Array.from({ length: 10 }, () => a(URL_A));
    await clock.advance(0);
    const bCalls = Array.from({ length: 3 }, () => b(URL_A));
    await runUntilSettled(clock, [...aCalls, ...bCalls], 1);
    // `b` paces from what `a` booked: its calls leave after `a`'s, one per 100 ms.
    const times = server.seen.map((s) => s.at);
    const aLast = times[11]!;
    expect(aLast - times[2]!).toBe(800);
    expect(times.slice(-3)).toEqual([aLast + 100, aLast + 200, aLast + 300]);
    expect(server.refused()).toBe(0);
  });

  it('a window the server reports exhausted closes the shared gate until it resets', async () => {
    const clock = new ManualClock();
    // A fixed window of 2 per 10 s, reported with its counters, no policy.
    const server = fakeFetch(clock, (seen) => {
      const used = server.seen.filter(
        (s) => Math.floor(s.at / 10_000) === Math.floor(seen.at / 10_000),
      ).length;
      const resetS = Math.ceil((10_000 - (seen.at % 10_000)) / 1000);
      if (used > 2)
        return { status: 429, headers: { 'retry-after': String(resetS) } as Record<string, string> };
      return {
        status: 200,
        headers: {
          'x-ratelimit-limit': '2',
          'x-ratelimit-remaining': String(2 - used),
          'x-ratelimit-reset': String(resetS),
        },
      };
    });
    const store = memoryStore({ clock });
    const a = createFetch({ fetch: server.fetch, clock, store, random: () => 0 });
    const b = createFetch({ fetch: server.fetch, clock, store, random: () => 0 });
    await runUntilSettled(clock, [a(URL_A), a(URL_A)], 10);
    // `b` never saw an answer: the shared gate alone holds it until the window resets.
    await runUntilSettled(clock, [b(URL_A)], 10);
    expect(server.seen.map((s) => s.at >= 10_000)).toEqual([false, false, true]);
  });
});
