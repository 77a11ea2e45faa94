/**
 * A call that booked its units from the shared quota waits for them outside the line. If another
 * process is refused meanwhile and closes the shared gate, the booked call must not send through it
 * (src/client/shared-booking.ts: "A gate that closes meanwhile (another process was refused) gives
 * the booking back, and the call queues again").
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { memoryStore } from '../../src/stores/memory.js';
import { fakeFetch, runUntilSettled } from './fake-server.js';

const URL_A = 'http://127.0.0.1:9/a';

describe('shared gate: closed by another process while a call waits for its booked units', () => {
  it('the booked call of the other client waits for the shared gate instead of sending through it', async () => {
    const clock = new ManualClock();
    // 50 ms of latency: A's first request is refused (Retry-After 2 s) at t = 50, while B's
    // booked call still waits for units due at t ≈ 100.
    const server = fakeFetch(
      clock,
      (_seen, i) => (i === 0 ? { status: 429, headers: { 'retry-after': '2' } } : { status: 200 }),
      50,
    );
    const store = memoryStore({ clock });
    const options = { fetch: server.fetch, clock, store, rate: 10, burst: 20, random: () => 0 };
    const a = createFetch(options);
    const b = createFetch(options);
    // A takes the booking bucket's burst of 2 at t = 0 (the first one is refused at t = 50).
    const fromA = [a(URL_A), a(URL_A)];
    await clock.advance(1);
    // B books at t = 1: its unit is due one interval (100 ms) later.
    const fromB = b(URL_A);
    const results = await runUntilSettled(clock, [...fromA, fromB], 5);
    expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
    const times = server.seen.map((s) => s.at);
    expect(times.slice(0, 2)).toEqual([0, 0]);
    // The shared gate is closed from t = 50 until t = 2050: B's request must wait for it.
    expect(times[2]).toBeGreaterThanOrEqual(2050);
  });
});
