/**
 * README "Metrics": `headway.client.wait.duration` records "each wait a call was told to take
 * before its next attempt (`onThrottle`; …)", with `headway.wait.reason` `pacing` among its values.
 * A call queued behind the first call of a fresh key is first told to wait for that call's answer
 * (an untimed wait, which is rightly not an event), then a timed pacing wait: that timed wait is
 * the one to record.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { clientMetrics, instruments } from '../../src/metrics/index.js';
import { fakeFetch, runUntilSettled } from '../client/fake-server.js';
import { inMemoryMeter } from './in-memory.js';

const B = 'http://b.test';

describe('headway.client.wait.duration: a pacing wait after a wait for an answer', () => {
  it('records the 0.5 s a second call is paced at 2 per second', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, () => ({ status: 200 }));
    // 2 per second, burst 1: of two calls made at once, the second goes 500 ms after the first.
    const fetch = createFetch({ fetch: server.fetch, clock, random: () => 0, rate: 2, burst: 1 });
    const sdk = inMemoryMeter();
    const stop = clientMetrics(fetch, { meter: sdk.meter });
    const throttles: number[] = [];
    fetch.onThrottle((e) => throttles.push(e.waitMs));

    await runUntilSettled(clock, [fetch(`${B}/1`), fetch(`${B}/2`)]);
    expect(server.seen.map((s) => s.at)).toEqual([0, 500]);
    expect(fetch.stats()[0]?.waitedMs).toBe(500);

    expect(throttles).toEqual([500]);
    const recorded = await sdk.collect();
    expect(recorded.get(instruments.clientWait.name)?.points).toEqual([
      { attributes: { 'headway.key': B, 'headway.wait.reason': 'pacing' }, value: { count: 1, sum: 0.5 } },
    ]);
    stop();
    await sdk.shutdown();
  });
});
