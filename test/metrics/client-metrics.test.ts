import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { clientMetrics, instruments } from '../../src/metrics/index.js';
import { fakeFetch, runUntilSettled } from '../client/fake-server.js';
import { inMemoryMeter, type Point } from './in-memory.js';

const A = 'http://a.test';
const B = 'http://b.test';
const at = (points: Point[] | undefined, attributes: Record<string, unknown>) =>
  points?.find((p) => Object.entries(attributes).every(([k, v]) => p.attributes[k] === v))?.value;

describe('clientMetrics', () => {
  it('records waits, retries, 429s, give-ups, gate-closed time and budget, by key', async () => {
    const clock = new ManualClock();
    // a.test: the first request is refused with Retry-After: 2, every other one is admitted.
    // b.test: a POST answered 500 is not retried (not idempotent): one give-up.
    const server = fakeFetch(clock, (seen, index) => {
      if (seen.url.startsWith(B)) return { status: 500 };
      return index === 0 ? { status: 429, headers: { 'retry-after': '2' } } : { status: 200 };
    });
    const fetch = createFetch({ fetch: server.fetch, clock, random: () => 0 });
    const sdk = inMemoryMeter();
    const stop = clientMetrics(fetch, { meter: sdk.meter });

    const [first] = await runUntilSettled(clock, [fetch(`${A}/1`)]);
    expect(first).toMatchObject({ status: 'fulfilled', value: { status: 200 } });
    await runUntilSettled(clock, [fetch(`${B}/1`, { method: 'POST', body: 'x' })]);
    await clock.advance(5_000);

    const recorded = await sdk.collect();
    const aKey = { 'headway.key': A };
    // One wait: the retry waited 2 s at the gate the 429 closed (random 0: no spread).
    expect(recorded.get(instruments.clientWait.name)).toEqual({
      unit: 's',
      points: [{ attributes: { ...aKey, 'headway.wait.reason': 'gate' }, value: { count: 1, sum: 2 } }],
    });
    expect(recorded.get(instruments.clientRetries.name)?.points).toEqual([
      { attributes: { ...aKey, 'headway.retry.reason': 'rate-limited' }, value: 1 },
    ]);
    expect(recorded.get(instruments.clientRateLimited.name)?.points).toEqual([
      { attributes: { ...aKey, 'http.response.status_code': 429 }, value: 1 },
    ]);
    expect(recorded.get(instruments.clientGiveUps.name)?.points).toEqual([
      { attributes: { 'headway.key': B, 'headway.give_up.reason': 'not-idempotent' }, value: 1 },
    ]);
    const gate = recorded.get(instruments.clientGateClosed.name);
    expect(gate?.unit).toBe('s');
    expect(at(gate?.points, aKey)).toBe(2);
    const budget = recorded.get(instruments.clientBudget.name);
    const stats = fetch.stats();
    expect(at(budget?.points, aKey)).toBe(stats.find((s) => s.key === A)?.budgetLeft);
    expect(at(budget?.points, { 'headway.key': B })).toBe(stats.find((s) => s.key === B)?.budgetLeft);

    // Stopped: nothing more is recorded.
    stop();
    await runUntilSettled(clock, [fetch(`${B}/2`, { method: 'POST', body: 'x' })]);
    const after = await sdk.collect();
    expect(at(after.get(instruments.clientGiveUps.name)?.points, { 'headway.key': B })).toBe(1);
    await sdk.shutdown();
  });

  it('counts the gate-closed time of overlapping refusals once', async () => {
    const clock = new ManualClock();
    // Two 429s with Retry-After 1 and 3 s while the first gate is still closed, then success.
    let refusals = 0;
    const server = fakeFetch(clock, () =>
      refusals++ < 2
        ? { status: 429, headers: { 'retry-after': refusals === 1 ? '1' : '3' } }
        : { status: 200 },
    );
    const fetch = createFetch({ fetch: server.fetch, clock, random: () => 0, retries: 5 });
    await runUntilSettled(clock, [fetch(`${A}/1`), fetch(`${A}/2`)]);
    const closed = fetch.stats()[0]?.gate.closedMs;
    // Both answers came back at t=0: the gate closed until 1 s, extended to 3 s: 3 s closed, not 4.
    expect(closed).toBe(3_000);
  });

  it('is a no-op without a registered SDK', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, () => ({ status: 200 }));
    const fetch = createFetch({ fetch: server.fetch, clock });
    const stop = clientMetrics(fetch);
    expect((await fetch(`${A}/1`)).status).toBe(200);
    stop();
  });
});
