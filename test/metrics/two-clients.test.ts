/**
 * Several clients recorded on one meter. README "Metrics":
 * `headway.client.gate.closed_time` is the "total time the key's gate has been closed"
 * (`stats()[n].gate.closedMs`), an observable counter by `headway.key`.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { clientMetrics, instruments } from '../../src/metrics/index.js';
import { fakeFetch, runUntilSettled } from '../client/fake-server.js';
import { inMemoryMeter } from './in-memory.js';

const A = 'http://a.test';

describe('clientMetrics: two clients on one meter', () => {
  it("a second client's observation of the same key does not erase the first client's gate-closed time", async () => {
    const clock = new ManualClock();
    // Client 1 is refused once with Retry-After: 2 (its gate closes 2 s); client 2 is always admitted.
    const limited = fakeFetch(clock, (_s, i) =>
      i === 0 ? { status: 429, headers: { 'retry-after': '2' } } : { status: 200 },
    );
    const fine = fakeFetch(clock, () => ({ status: 200 }));
    const one = createFetch({ fetch: limited.fetch, clock, random: () => 0 });
    const two = createFetch({ fetch: fine.fetch, clock, random: () => 0 });
    const sdk = inMemoryMeter();
    clientMetrics(one, { meter: sdk.meter });
    clientMetrics(two, { meter: sdk.meter });

    await runUntilSettled(clock, [one(`${A}/1`), two(`${A}/1`)]);
    expect(one.stats()[0]?.gate.closedMs).toBe(2_000);
    expect(two.stats()[0]?.gate.closedMs).toBe(0);

    const first = await sdk.collect();
    const points = first.get(instruments.clientGateClosed.name)?.points ?? [];
    const total = points
      .filter((p) => p.attributes['headway.key'] === A)
      .reduce((sum, p) => sum + (p.value as number), 0);
    // The key's gate was closed 2 s (in client 1): that total must show, however the points split.
    expect(total).toBe(2);
    await sdk.shutdown();
  });
});
