/**
 * Review (area: events): "Typed events of the client, each a subscription that returns its
 * unsubscribe function" (src/client/events.ts). Unsubscribing one subscription ends that one only.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { fakeFetch, runUntilSettled } from '../client/fake-server.js';

const URL_A = 'http://127.0.0.1:9/a';

describe('event subscriptions', () => {
  it('unsubscribing one of two subscriptions of the same listener leaves the other delivering', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, () => ({ status: 429 }));
    const fetch = createFetch({ fetch: server.fetch, clock, random: () => 0, retries: 0 });
    const seen: number[] = [];
    const log = (e: { status: number }) => seen.push(e.status);
    // Two parts of an app subscribe the same logger; one of them stops.
    const offFirst = fetch.onRateLimited(log);
    fetch.onRateLimited(log);
    offFirst();
    offFirst(); // idempotent
    await runUntilSettled(clock, [fetch(URL_A)]);
    expect(server.seen).toHaveLength(1);
    // The second subscription still stands: one delivery of the one 429.
    expect(seen).toEqual([429]);
  });
});
