/**
 * One client recorded twice on one meter (two parts of an app each calling `clientMetrics(fetch)`,
 * one of them later stopping). Each call "Returns a function that stops recording" (TSDoc of
 * `clientMetrics`): that recording, not the other one. `recordClientMetrics`
 * (src/metrics/client-metrics.ts) keeps the meter's observed clients in a `Set` of clients, so the
 * second call adds nothing and the first `stop()` deletes the client for both: the binding still
 * running keeps counting retries and 429s, but its `headway.client.gate.closed_time` and
 * `headway.client.retry_budget.remaining` (README "Metrics") are never observed again.
 * (`serverMetrics().observe` gives each call its own entry for exactly this reason.)
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { clientMetrics, instruments } from '../../src/metrics/index.js';
import { fakeFetch, runUntilSettled } from '../client/fake-server.js';
import { inMemoryMeter, type Point } from './in-memory.js';

const A = 'http://a.test';
const gateOf = (points: Point[] | undefined) => points?.find((p) => p.attributes['headway.key'] === A)?.value;

describe('clientMetrics: one client recorded twice on one meter', () => {
  it("stopping one recording leaves the other's gate-closed time observed", async () => {
    const clock = new ManualClock();
    // Each odd call's first attempt is refused: Retry-After 2 s, then 3 s; every other attempt is admitted.
    const server = fakeFetch(clock, (_s, i) =>
      i === 0
        ? { status: 429, headers: { 'retry-after': '2' } }
        : i === 2
          ? { status: 429, headers: { 'retry-after': '3' } }
          : { status: 200 },
    );
    const fetch = createFetch({ fetch: server.fetch, clock, random: () => 0 });
    const sdk = inMemoryMeter();
    const stopFirst = clientMetrics(fetch, { meter: sdk.meter });
    const stopSecond = clientMetrics(fetch, { meter: sdk.meter });

    await runUntilSettled(clock, [fetch(`${A}/1`)]);
    stopFirst();
    await runUntilSettled(clock, [fetch(`${A}/2`)]);
    expect(fetch.stats()[0]?.gate.closedMs).toBe(5_000);

    const recorded = await sdk.collect();
    expect(gateOf(recorded.get(instruments.clientGateClosed.name)?.points)).toBe(5);
    stopSecond();
    await sdk.shutdown();
  });
});
