/**
 * One long-lived `AbortSignal` for many calls (a batch job's shutdown signal, never aborted): a call
 * that has ended leaves no listener on it (conventions 8: "keep every timer handle … no timer keeps
 * the process alive after the work is done"; call-context.ts: "nothing is left registered on the
 * caller's signal"). A network failure is checked by building a throwaway `Request` from the
 * caller's own `init` (create-fetch.ts `refusedArguments`), signal included, and a `Request` made
 * with a signal follows it: one more abort listener on the caller's signal per failed attempt,
 * which only garbage collection removes.
 */
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { fakeFetch, runUntilSettled } from './fake-server.js';

describe('a long-lived caller signal', () => {
  it('keeps no listener from calls that ended in network failures', async () => {
    const clock = new ManualClock();
    const down = () => new TypeError('fetch failed', { cause: new Error('ECONNREFUSED') });
    const server = fakeFetch(clock, down);
    const fetch = createFetch({ fetch: server.fetch, clock, retries: 2 });
    const shutdown = new AbortController();
    const calls = Array.from({ length: 20 }, (_, i) =>
      fetch(`http://127.0.0.1:8080/item/${i}`, { signal: shutdown.signal }),
    );
    const results = await runUntilSettled(clock, calls, 100);
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    expect(server.seen.length).toBeGreaterThan(20); // retried: several failed attempts per call
    expect(getEventListeners(shutdown.signal, 'abort')).toHaveLength(0);
  });
});
