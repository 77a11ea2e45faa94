/**
 * Review (area: events/stats). A call whose caller's signal is already aborted is handed to the
 * transport anyway when its key may send at once (src/client/engine-call.ts: `#loop` acquires a
 * ticket and calls `transport.send` with no check of the signal; src/client/key-lane.ts `acquire`
 * grants it). `fetch` rejects such a call before sending anything (Fetch Standard, `fetch()` step
 * "If requestObject's signal is aborted, then abort the fetch() call"), yet the key books it:
 * `stats().sent` ("Attempts sent") counts it, and the pacer spends a unit on it, so the next real
 * call waits a whole interval (and an `onThrottle` fires) behind a call that never left. README: a
 * call "that cannot go yet waits exactly the computed time"; `sent` is "Attempts sent".
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { AbortError } from '../../src/errors.js';
import { runUntilSettled } from './fake-server.js';

const URL_A = 'http://127.0.0.1:9/a';

/** A transport that behaves as `fetch` does: an already aborted signal rejects before anything is sent. */
function fetchLike(clock: ManualClock) {
  const sentAt: number[] = [];
  const fetch = async (_input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    if (init?.signal?.aborted) throw init.signal.reason;
    sentAt.push(clock.now());
    return new Response('ok', { status: 200 });
  };
  return { fetch, sentAt };
}

describe('a call whose signal aborted before it was made', () => {
  it('is not counted as sent and does not spend the key’s pace', async () => {
    const clock = new ManualClock();
    const server = fetchLike(clock);
    // One call per second, burst 1.
    const fetch = createFetch({ fetch: server.fetch, clock, random: () => 0, rate: 1, burst: 1 });
    const throttles: number[] = [];
    fetch.onThrottle((e) => throttles.push(e.waitMs));

    const caller = new AbortController();
    caller.abort(new Error('no longer needed'));
    await expect(fetch(URL_A, { signal: caller.signal })).rejects.toBeInstanceOf(AbortError);
    expect(server.sentAt).toEqual([]);
    expect(fetch.stats()[0]!.sent).toBe(0);

    // The next call is the first one sent: the bucket's one unit is still there for it.
    const [next] = await runUntilSettled(clock, [fetch(URL_A)], 10);
    expect(next).toMatchObject({ status: 'fulfilled' });
    expect(server.sentAt).toEqual([0]);
    expect(throttles).toEqual([]);
  });
});
