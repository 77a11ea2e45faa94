/**
 * README: `deadlineMs` — "a projected wait beyond it fails at once"; "More than one process": every
 * worker "waits its turn in one shared bucket". With a store, the head books the call's unit in the
 * shared bucket first and only then judges the wait against the deadline: a call that fails it
 * there was never sent, so its unit goes back to the store (`giveBack`), and the fleet's next
 * bookings do not wait behind slots nobody uses.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { isHeadwayError } from '../../src/errors.js';
import { memoryStore } from '../../src/stores/memory.js';
import { fakeFetch, runUntilSettled } from './fake-server.js';

const URL_A = 'http://127.0.0.1:9/a';

describe('shared quota: calls that fail their deadline before they are sent', () => {
  it('leave no units booked in the shared bucket: the other worker goes when the sent calls allow', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, () => ({ status: 200 }));
    const store = memoryStore({ clock });
    // 10/s: bookings at 0, 0, 100, 200, … ms.
    const a = createFetch({ fetch: server.fetch, clock, store, rate: 10, burst: 20, deadlineMs: 150 });
    const b = createFetch({ fetch: server.fetch, clock, store, rate: 10, burst: 20 });
    const results = await runUntilSettled(
      clock,
      Array.from({ length: 20 }, () => a(URL_A)),
      5,
    );
    const sent = results.filter((r) => r.status === 'fulfilled').length;
    const missed = results.filter(
      (r) => r.status === 'rejected' && isHeadwayError(r.reason, 'HEADWAY_DEADLINE_EXCEEDED'),
    ).length;
    expect([sent, missed]).toEqual([3, 17]);
    expect(server.seen.map((s) => s.at)).toEqual([0, 0, 100]);
    // Three units were used (at 0, 0 and 100 ms): b's call is due at 200 ms.
    await runUntilSettled(clock, [b(URL_A)], 5);
    expect(server.seen[3]!.at).toBeLessThanOrEqual(200);
  });

  it('an aborted call waiting for its booked unit gives the unit back too', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, () => ({ status: 200 }));
    const store = memoryStore({ clock });
    const a = createFetch({ fetch: server.fetch, clock, store, rate: 10, burst: 20 });
    const b = createFetch({ fetch: server.fetch, clock, store, rate: 10, burst: 20 });
    const controller = new AbortController();
    // Booked at 0, 0 and 100 ms; the third is aborted at 50 ms, while it waits for its unit.
    const calls = [a(URL_A), a(URL_A), a(URL_A, { signal: controller.signal })];
    await clock.advance(50);
    controller.abort();
    const results = await runUntilSettled(clock, calls, 5);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    // Its unit is back: b's call takes the 100 ms slot (200 ms if it stayed booked).
    await runUntilSettled(clock, [b(URL_A)], 5);
    expect(server.seen.map((s) => s.at)).toEqual([0, 0, 100]);
  });
});
