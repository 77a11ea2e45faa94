/**
 * With a store, the head of a key's line books its units in the shared quota: a store round trip
 * (`gateWait`, `reserve`) inside the line's task. p-queue races the call's signal against that
 * task: an abort during the round trip rejects the call at once, while the task runs on and, when
 * the store answers, takes a ticket (counted in flight, or as the outage's probe) that nobody gives
 * back (src/client/turn.ts: waitTurn's `granted` is set after its catch already ran). The key then
 * counts a call in flight forever: `maxConcurrent` and the outage probe hold every later call.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { AbortError } from '../../src/errors.js';
import { memoryStore } from '../../src/stores/memory.js';
import type { RateLimitStore } from '../../src/stores/store.js';
import { fakeFetch } from './fake-server.js';

const ORIGIN = 'http://127.0.0.1:9';

/** A memory store whose answers take `ms` on the manual clock (a store across the network). */
function slowStore(clock: ManualClock, ms: number): RateLimitStore {
  const inner = memoryStore({ clock });
  return {
    take: (k, l, c) => inner.take(k, l, c),
    reserve: async (k, l, c) => {
      await clock.sleep(ms);
      return inner.reserve(k, l, c);
    },
    holdGate: (k, gateMs) => inner.holdGate(k, gateMs),
    gateWait: async (k) => {
      await clock.sleep(ms);
      return inner.gateWait(k);
    },
  };
}

/** Tracks a call's end without awaiting it (a call that never settles must not hang the test). */
function track(p: Promise<Response>): { state: () => string; reason: () => unknown } {
  let state = 'pending';
  let reason: unknown;
  p.then(
    () => (state = 'fulfilled'),
    (e: unknown) => {
      state = 'rejected';
      reason = e;
    },
  );
  return { state: () => state, reason: () => reason };
}

describe('a call aborted while the head books in the shared quota', () => {
  it('maxConcurrent: 1 — the aborted call takes no place in flight, and the next call goes', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, () => ({ status: 200 }), 10);
    const fetch = createFetch({ fetch: server.fetch, clock, store: slowStore(clock, 100), maxConcurrent: 1 });
    const caller = new AbortController();
    const aborted = track(fetch(`${ORIGIN}/aborted`, { signal: caller.signal }));
    await clock.advance(50); // the head's store round trip is under way (it answers at 100)
    caller.abort(new Error('not needed any more'));
    await clock.advance(200);
    expect(aborted.state()).toBe('rejected');
    expect(aborted.reason()).toBeInstanceOf(AbortError);
    expect(server.seen).toHaveLength(0);
    expect(fetch.stats()[0]).toMatchObject({ inFlight: 0, sent: 0, queued: 0 });
    const later = track(fetch(`${ORIGIN}/later`));
    await clock.advance(5_000);
    expect(later.state()).toBe('fulfilled');
  });

  it('an aborted outage probe — the next call probes, the key does not hang', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, (_s, i) => (i === 0 ? { status: 503 } : { status: 200 }), 10);
    const fetch = createFetch({
      fetch: server.fetch,
      clock,
      store: slowStore(clock, 100),
      retries: 0,
      random: () => 0.5,
    });
    const first = track(fetch(`${ORIGIN}/first`)); // 503: an outage, the gate closes ~75 ms
    await clock.advance(500);
    expect(first.state()).toBe('fulfilled');
    const caller = new AbortController();
    const probe = track(fetch(`${ORIGIN}/probe`, { signal: caller.signal }));
    await clock.advance(50); // the probe's booking round trip is under way
    caller.abort(new Error('probe gave up'));
    await clock.advance(200);
    expect(probe.state()).toBe('rejected');
    const later = track(fetch(`${ORIGIN}/later`));
    await clock.advance(5_000);
    expect(later.state()).toBe('fulfilled');
    expect(fetch.stats()[0]!.inFlight).toBe(0);
  });
});
