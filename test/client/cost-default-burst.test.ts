/**
 * A cost above `burst` is an InvalidCostError (README, errors table) — also when `burst` is left to
 * its documented default, `max(1, rate)`.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { InvalidCostError } from '../../src/errors.js';
import { fakeFetch, runUntilSettled } from './fake-server.js';

describe('cost above the default burst', () => {
  it('`rate: 2` (burst defaults to 2): a call costing 3 requests is an InvalidCostError, as with `burst: 2`', async () => {
    const clock = new ManualClock(0, Date.UTC(2026, 10, 30));
    const { fetch: transport, seen } = fakeFetch(clock, () => ({ status: 200 }));
    const explicit = createFetch({ fetch: transport, clock, rate: 2, burst: 2, cost: () => 3 });
    const defaulted = createFetch({ fetch: transport, clock, rate: 2, cost: () => 3 });
    const [a, b] = await runUntilSettled(clock, [explicit('http://a.test/x'), defaulted('http://b.test/x')]);
    expect(a).toMatchObject({ status: 'rejected', reason: expect.any(InvalidCostError) });
    // Observed: the call is sent (3 units through a bucket of 2).
    expect(b).toMatchObject({ status: 'rejected', reason: expect.any(InvalidCostError) });
    expect(seen).toHaveLength(0);
  });
});
