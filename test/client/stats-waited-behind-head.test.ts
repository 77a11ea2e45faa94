/**
 * Review (area: stats): `KeyStats.waitedMs` is "Total ms calls spent waiting (pacing, gates,
 * backoff)". A call that waits behind the head of its key's line is waiting for pacing too.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { fakeFetch, runUntilSettled } from '../client/fake-server.js';

const URL_A = 'http://127.0.0.1:9/a';

describe('stats().waitedMs', () => {
  it('counts the time a call waited behind the head of the line, not only its own wait at the head', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, () => ({ status: 200 }));
    // One call per second: three calls at 0 are sent at 0, 1 000 and 2 000.
    const fetch = createFetch({ fetch: server.fetch, clock, rate: 1, burst: 1 });
    const results = await runUntilSettled(clock, [fetch(URL_A), fetch(URL_A), fetch(URL_A)]);
    expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
    expect(server.seen.map((s) => s.at)).toEqual([0, 1_000, 2_000]);
    // The calls waited 0 + 1 000 + 2 000 ms.
    expect(fetch.stats()[0]!.waitedMs).toBe(3_000);
  });
});
