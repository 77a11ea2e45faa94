/**
 * Review (area: queue). `maxQueue` is "calls of a key waiting before `QueueFullError`" (README,
 * client options): a call the caller aborted is no longer waiting, and its place is free at once.
 * The place is only given back in `waitTurn`'s `finally` (src/client/turn.ts → `line.leave()`),
 * a few microtasks after p-queue rejected the aborted task, so the common "abort the previous
 * request, send the new one" (a search box) is refused with `QueueFullError` when the line is
 * full, and `stats().queued` still counts the aborted call.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { AbortError } from '../../src/errors.js';
import { fakeFetch, runUntilSettled } from './fake-server.js';

const ORIGIN = 'http://127.0.0.1:9';

/** A key with one call in flight and one waiting: `maxConcurrent: 1`, `maxQueue: 1`. */
function fullLine() {
  const clock = new ManualClock();
  const server = fakeFetch(clock, () => ({ status: 200 }), 100);
  const fetch = createFetch({ fetch: server.fetch, clock, maxConcurrent: 1, maxQueue: 1 });
  const inFlight = fetch(`${ORIGIN}/in-flight`);
  const previous = new AbortController();
  const waiting = fetch(`${ORIGIN}/old-query`, { signal: previous.signal });
  waiting.catch(() => {}); // its AbortError is read below
  return { clock, server, fetch, inFlight, previous, waiting };
}

describe('maxQueue: an aborted waiting call frees its place at once', () => {
  it('a call made right after aborting the waiting one takes its place (abort previous, send new)', async () => {
    const { clock, server, fetch, inFlight, previous, waiting } = fullLine();
    previous.abort(new Error('the user typed on'));
    const next = fetch(`${ORIGIN}/new-query`);
    next.catch(() => {}); // read below

    const [first, old, fresh] = await runUntilSettled(clock, [inFlight, waiting, next]);
    expect(first).toMatchObject({ status: 'fulfilled' });
    expect((old as PromiseRejectedResult).reason).toBeInstanceOf(AbortError);
    expect(fresh).toMatchObject({ status: 'fulfilled' });
    expect(server.seen.map((s) => s.url)).toEqual([`${ORIGIN}/in-flight`, `${ORIGIN}/new-query`]);
  });

  it('stats().queued no longer counts the aborted call', async () => {
    const { clock, fetch, inFlight, previous, waiting } = fullLine();
    expect(fetch.stats()[0]!.queued).toBe(1);
    previous.abort(new Error('the user typed on'));
    expect(fetch.stats()[0]!.queued).toBe(0);
    await runUntilSettled(clock, [inFlight, waiting]);
  });
});
