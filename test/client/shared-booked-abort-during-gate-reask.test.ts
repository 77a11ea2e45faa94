/**
 * With a store, a call booked for later waits for its units, then asks the store for the shared
 * gate again (src/client/shared-booking.ts: awaitBooking, `await shared.gateWait()`). That round
 * trip is not raced against the call's signal: an abort (or the call's deadline) that comes while
 * the store answers is not honoured until the store has answered, and the call is then handed to
 * the transport with its signal already aborted. Every wait is abortable at once (design: "an
 * AbortSignal … exceeding any gives a typed error, never a hang"; conventions §8 "an abort cancels
 * a pacing wait or a backoff at once").
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { AbortError, DeadlineExceededError } from '../../src/errors.js';
import { memoryStore } from '../../src/stores/memory.js';
import type { RateLimitStore } from '../../src/stores/store.js';
import { fakeFetch, runUntilSettled } from './fake-server.js';

const URL_A = 'http://127.0.0.1:9/a';

/** A memory store whose `gateWait` takes 500 ms once `slow.on` is set (a store across a busy network). */
function slowGateStore(clock: ManualClock) {
  const inner = memoryStore({ clock });
  const slow = { on: false };
  const store: RateLimitStore = {
    take: (k, l, c) => inner.take(k, l, c),
    reserve: (k, l, c) => inner.reserve(k, l, c),
    holdGate: (k, ms) => inner.holdGate(k, ms),
    gateWait: async (k) => {
      if (slow.on) await clock.sleep(500);
      return inner.gateWait(k);
    },
  };
  return { store, slow };
}

/** Tracks a call's end without awaiting it. */
function track(clock: ManualClock, p: Promise<Response>) {
  const end = { state: 'pending', at: -1, reason: undefined as unknown };
  p.then(
    () => Object.assign(end, { state: 'fulfilled', at: clock.now() }),
    (reason: unknown) => Object.assign(end, { state: 'rejected', at: clock.now(), reason }),
  );
  return end;
}

describe('a booked call whose units are due, while the store answers its gate question', () => {
  it('rejects with AbortError as soon as the caller aborts, and is never sent', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, () => ({ status: 200 }));
    const { store, slow } = slowGateStore(clock);
    // Bookings: a burst of 2 at 0, then one per 100 ms.
    const fetch = createFetch({ fetch: server.fetch, clock, store, rate: 10, burst: 20 });
    const first = [fetch(URL_A), fetch(URL_A)];
    const caller = new AbortController();
    const third = track(clock, fetch(URL_A, { signal: caller.signal })); // booked, due at 100 ms
    await clock.advance(50);
    slow.on = true;
    await clock.advance(100); // at 100 its units are due: it asks the store for the gate (answer at 600)
    caller.abort(new Error('not needed any more'));
    await clock.advance(1);
    expect(third.state).toBe('rejected');
    expect(third.reason).toBeInstanceOf(AbortError);
    await runUntilSettled(clock, first, 10);
    await clock.advance(1000);
    expect(server.seen.map((s) => s.at)).toEqual([0, 0]);
  });

  it('rejects with DeadlineExceededError at its deadline, not when the store answers', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, () => ({ status: 200 }));
    const { store, slow } = slowGateStore(clock);
    const fetch = createFetch({ fetch: server.fetch, clock, store, rate: 10, burst: 20 });
    const first = [fetch(URL_A), fetch(URL_A)];
    // Booked at 0, due at 100 ms; the gate's answer would come at 600 ms; the deadline is 300 ms.
    const third = track(clock, fetch(URL_A, { deadlineMs: 300 }));
    await clock.advance(50);
    slow.on = true;
    await runUntilSettled(clock, first, 10);
    await clock.advance(260);
    expect(third.state).toBe('rejected');
    expect(third.reason).toBeInstanceOf(DeadlineExceededError);
  });
});
