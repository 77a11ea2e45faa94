/**
 * Review (area: stats). `stats().waitedMs` is the "Total ms calls spent waiting (pacing, gates,
 * backoff)" (src/client/stats.ts; README "Events and stats"), and a wait that ends in an error
 * still counts ("the call waited all the same", src/client/engine-call.ts `#loop`; src/client/turn.ts
 * `waitTurn` adds it in `finally`). A retry's own backoff is the exception: `EngineCall#backOff`
 * adds the time slept only after the sleep resolves, so a backoff the caller aborts half-way is
 * lost — the same 500 ms spent waiting for a gate is counted.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { AbortError } from '../../src/errors.js';
import { fakeFetch } from './fake-server.js';

const URL_A = 'http://127.0.0.1:9/a';

describe('stats().waitedMs of a call aborted during its retry backoff', () => {
  it('counts the 500 ms of backoff it waited before the abort', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, () => ({ status: 503 }));
    const fetch = createFetch({
      fetch: server.fetch,
      clock,
      random: () => 0.99, // backoff ≈ 990 ms after the first 503
      backoff: { baseMs: 1_000, capMs: 10_000 },
    });
    const retries: number[] = [];
    fetch.onRetry((e) => retries.push(e.delayMs));
    const caller = new AbortController();
    const call = fetch(URL_A, { signal: caller.signal });
    await clock.advance(500);
    // The retry's backoff runs from 0 (990 ms; the outage gate it also waits for, a little longer).
    expect(retries).toHaveLength(1);
    expect(retries[0]).toBeGreaterThanOrEqual(990);
    caller.abort(new Error('caller gave up'));
    await expect(call).rejects.toBeInstanceOf(AbortError);
    expect(server.seen).toHaveLength(1);
    expect(fetch.stats()[0]!.waitedMs).toBe(500);
  });
});
