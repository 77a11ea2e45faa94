/**
 * An abort that lands while the head of a key's line is being handed its ticket (second review
 * pass). The head takes its ticket (the pacer counts it in flight, or as the outage's probe)
 * inside the waiting line's task, and the line hands the result over a few microtasks later; an
 * abort in between rejects the call, and the ticket it took is never given back. Whether an abort
 * lands there depends on microtask order, so each test tries the abort after 0…11 extra
 * microtasks: every one of them must leave the key usable.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { AbortError } from '../../src/errors.js';
import { fakeFetch } from './fake-server.js';

const ORIGIN = 'http://127.0.0.1:9';

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

const tick = async (n: number) => {
  for (let i = 0; i < n; i++) await null;
};

describe('an abort while the head is handed its ticket', () => {
  for (let k = 0; k < 12; k++) {
    it(`maxConcurrent: 1 — the aborted head gives its place back (abort ${k} microtasks after the answer)`, async () => {
      const clock = new ManualClock();
      const server = fakeFetch(clock, () => ({ status: 200 }), 100);
      const fetch = createFetch({ fetch: server.fetch, clock, maxConcurrent: 1 });
      const loser = new AbortController();
      // The caller aborts the waiting call once the first one answered (a race of two calls).
      const first = track(
        fetch(`${ORIGIN}/first`).then(async (r) => {
          await tick(k);
          loser.abort(new Error('not needed any more'));
          return r;
        }),
      );
      const waiting = track(fetch(`${ORIGIN}/waiting`, { signal: loser.signal }));
      await clock.advance(1_000);
      expect(first.state()).toBe('fulfilled');
      expect(waiting.state()).toBe('rejected');
      expect(waiting.reason()).toBeInstanceOf(AbortError);
      const later = track(fetch(`${ORIGIN}/later`));
      await clock.advance(1_000);
      // A later call must not wait for a call that is gone.
      expect(later.state()).toBe('fulfilled');
      const stats = fetch.stats()[0]!;
      expect(stats.inFlight).toBe(0);
      expect(stats.queued).toBe(0);
      expect(stats.sent).toBe(server.seen.length);
    });
  }

  for (let k = 0; k < 12; k++) {
    it(`outage — an aborted probe lets the next probe go (abort ${k} microtasks after the probe's)`, async () => {
      const clock = new ManualClock();
      const server = fakeFetch(clock, (_s, i) => (i === 0 ? { status: 503 } : { status: 200 }), 100);
      const fetch = createFetch({ fetch: server.fetch, clock, random: () => 0.5, retries: 0 });
      const first = track(fetch(`${ORIGIN}/first`)); // 503 at 100: an outage, a gate until ~175
      await clock.advance(150);
      const probeCaller = new AbortController();
      const nextCaller = new AbortController();
      const probe = track(fetch(`${ORIGIN}/probe`, { signal: probeCaller.signal }));
      const next = track(fetch(`${ORIGIN}/next`, { signal: nextCaller.signal })); // waits for the probe
      await clock.advance(50); // the probe is in flight, the next call waits for its answer
      expect(server.seen.map((s) => s.url)).toEqual([`${ORIGIN}/first`, `${ORIGIN}/probe`]);
      probeCaller.abort(new Error('probe gave up'));
      await tick(k);
      nextCaller.abort(new Error('next gave up'));
      await clock.advance(1_000);
      expect([first.state(), probe.state(), next.state()]).toEqual(['fulfilled', 'rejected', 'rejected']);
      const later = track(fetch(`${ORIGIN}/later`));
      await clock.advance(5_000);
      // The outage's probe is gone: the next probe goes.
      expect(later.state()).toBe('fulfilled');
      expect(fetch.stats()[0]!.inFlight).toBe(0);
    });
  }
});
