/**
 * An `onThrottle` listener runs while the head of the line is told its wait (src/client/turn.ts:
 * `atHead` calls `waiter.checkWait`, then `line.sleep`). A listener that aborts the waiting call
 * (give up on a long wait) aborts its signal before the sleep starts: `Changes.sleep` adds its
 * abort listener to a signal that has already aborted, which never fires, so the head's timer
 * runs the whole wait (here 30 s; up to `maxRetryAfterMs`) after the call rejected. With the system
 * clock that timer keeps the process alive. The house rule: "an abort cancels a pacing wait or a
 * backoff at once, and no timer keeps the process alive after the work is done".
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { AbortError } from '../../src/errors.js';
import { fakeFetch } from './fake-server.js';

const URL_A = 'http://127.0.0.1:9/a';

describe('a call aborted by an onThrottle listener', () => {
  it('leaves no timer behind once it rejected', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, (_s, i) =>
      i === 0 ? { status: 429, headers: { 'retry-after': '30' } } : { status: 200 },
    );
    const fetch = createFetch({ fetch: server.fetch, clock, retries: 0, random: () => 0 });
    expect((await fetch(URL_A)).status).toBe(429); // the key's gate is closed for 30 s
    expect(clock.pending).toBe(0);
    const caller = new AbortController();
    const events: number[] = [];
    fetch.onThrottle((e) => {
      events.push(e.waitMs);
      caller.abort(new Error('too long a wait'));
    });
    const results = await Promise.allSettled([fetch(URL_A, { signal: caller.signal })]);
    expect(events).toEqual([30_000]);
    expect(results[0]).toMatchObject({ status: 'rejected' });
    expect((results[0] as PromiseRejectedResult).reason).toBeInstanceOf(AbortError);
    await clock.advance(0);
    expect(fetch.stats()[0]).toMatchObject({ queued: 0, inFlight: 0 });
    expect(clock.pending).toBe(0);
  });
});
