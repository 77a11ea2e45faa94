/**
 * README, Client options: "A client keeps up to 10,000 keys; past that it forgets keys at rest (no
 * call under way, nothing learned that still holds a call, a configured bucket full)". A key whose
 * last attempt failed (a 503 with no hint, a connection error) once, long ago, has no call under
 * way and its outage backoff expired long since: nothing it learned holds a call any more. A client
 * that sends to many origins over time (webhooks, a crawler) meets such keys all the time.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { fakeFetch } from './fake-server.js';

const DAY_MS = 86_400_000;

describe('keys forgotten past 10,000', () => {
  it('a key whose one failure is a day old is forgotten like any other idle key', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, (seen) =>
      seen.url.includes('down-') ? { status: 503 } : { status: 200 },
    );
    const fetch = createFetch({ fetch: server.fetch, clock, retries: 0 });
    // 10,000 origins each answer one 503 (no Retry-After): an outage backoff of ~100 ms each.
    for (let i = 0; i < 10_000; i += 1000)
      await Promise.all(Array.from({ length: 1000 }, (_, j) => fetch(`http://down-${i + j}.example/`)));
    await clock.advance(DAY_MS); // every backoff is long over; no call is under way
    // 2,000 more origins, answering 200: the client is past 10,000 keys and must forget idle ones.
    for (let i = 0; i < 2000; i += 1000)
      await Promise.all(Array.from({ length: 1000 }, (_, j) => fetch(`http://up-${i + j}.example/`)));
    expect(server.seen).toHaveLength(12_000);
    const lanes = fetch.stats();
    expect(lanes.length).toBeLessThanOrEqual(10_000);
  }, 60_000);
});
