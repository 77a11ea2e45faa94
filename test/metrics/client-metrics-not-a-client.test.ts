/**
 * `clientMetrics(fetch)` is given something that is not a Headway client — a plain `fetch` (a
 * JavaScript caller, or `globalThis.fetch` by mistake). Bad input must get a clear typed error
 * (house rule: every call resolves or rejects with a documented error), and a call that failed must
 * leave nothing behind. `recordClientMetrics` (src/metrics/client-metrics.ts) adds the object to the
 * meter's observed clients before it subscribes to its events; the subscription throws a bare
 * `TypeError`, and the object stays in the set. From then on every collection calls its `stats()`,
 * the one batch callback of the meter throws, and the gate-closed time and retry budget of every
 * other client on that meter (README "Metrics") are no longer reported.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { isHeadwayError } from '../../src/errors.js';
import { clientMetrics, instruments } from '../../src/metrics/index.js';
import { fakeFetch, runUntilSettled } from '../client/fake-server.js';
import { inMemoryMeter } from './in-memory.js';

const A = 'http://a.test';

describe('clientMetrics given something that is not a Headway client', () => {
  it('refuses it with a typed Headway error', async () => {
    const sdk = inMemoryMeter();
    let error: unknown;
    try {
      clientMetrics(globalThis.fetch as never, { meter: sdk.meter });
    } catch (e) {
      error = e;
    }
    expect(isHeadwayError(error)).toBe(true);
    await sdk.shutdown();
  });

  it("a failed call does not end the other clients' gate-closed time and budget on the meter", async () => {
    const clock = new ManualClock();
    // Refused once with Retry-After: 2 (the gate closes 2 s), then admitted.
    const server = fakeFetch(clock, (_s, i) =>
      i === 0 ? { status: 429, headers: { 'retry-after': '2' } } : { status: 200 },
    );
    const fetch = createFetch({ fetch: server.fetch, clock, random: () => 0 });
    const sdk = inMemoryMeter();
    clientMetrics(fetch, { meter: sdk.meter });
    try {
      clientMetrics(globalThis.fetch as never, { meter: sdk.meter });
    } catch {
      // whatever it throws, the first client's metrics must go on
    }

    await runUntilSettled(clock, [fetch(`${A}/1`)]);
    expect(fetch.stats()[0]?.gate.closedMs).toBe(2_000);

    const recorded = await sdk.collect();
    const gate = recorded.get(instruments.clientGateClosed.name)?.points ?? [];
    const budget = recorded.get(instruments.clientBudget.name)?.points ?? [];
    expect(gate).toEqual([{ attributes: { 'headway.key': A }, value: 2 }]);
    expect(budget).toEqual([{ attributes: { 'headway.key': A }, value: fetch.stats()[0]?.budgetLeft }]);
    await sdk.shutdown();
  });
});
