/**
 * README, "Client options": past 10,000 keys the client "forgets keys at rest ..., oldest first, so
 * forgetting one never lets a call go sooner". A key of an unconfigured fleet that books from the
 * shared bucket (figures learned) is at rest as soon as nothing is in flight
 * (src/client/key-lane.ts: `idle` → `Pacer.atRest`, whose `delay` is GO once a shared quota
 * paces): the shared bucket, booked ahead by the other workers, is not looked at. Forgotten, the
 * key starts unlearned and sends its first window (up to 4) unbooked, at once.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { memoryStore } from '../../src/stores/memory.js';
import { fakeFetch, runUntilSettled } from './fake-server.js';

const ORIGIN = 'http://127.0.0.1:9';

describe('a learned fleet key forgotten past 10,000 keys', () => {
  it("still books behind the other worker's bookings: its next call goes no sooner", async () => {
    const clock = new ManualClock();
    // 10/s, a bucket of 10, stated as a policy; other paths answer plainly.
    let tokens = 10;
    let last = 0;
    const server = fakeFetch(clock, (seen) => {
      if (!seen.url.includes('/hot')) return { status: 200 };
      tokens = Math.min(10, tokens + ((seen.at - last) * 10) / 1000);
      last = seen.at;
      const policy = { 'ratelimit-policy': '"p";q=10;w=1' };
      if (tokens < 1) return { status: 429, headers: { ...policy, 'retry-after': '1' } };
      tokens -= 1;
      return { status: 200, headers: { ...policy, ratelimit: `"p";r=${Math.floor(tokens)};t=1` } };
    });
    const store = memoryStore({ clock });
    const options = {
      fetch: server.fetch,
      clock,
      store,
      random: () => 0,
      key: (r: { url: URL }) => r.url.pathname,
    };
    const a = createFetch(options);
    const b = createFetch(options);
    // Both learn 10/s from a first answer; `b`'s key `/hot` is its oldest.
    await runUntilSettled(clock, [b(`${ORIGIN}/hot`), a(`${ORIGIN}/hot`)], 1);
    expect(b.stats()[0]!.learned).toMatchObject({ rate: 10, source: 'policy' });
    // `a` books 10 calls in the shared bucket: booked until ~800 ms.
    const fromA = Array.from({ length: 10 }, () => a(`${ORIGIN}/hot`));
    await clock.advance(0);
    // `b` reaches 10,000 keys: its `/hot` lane (no call under way) is forgotten.
    const others: Array<Promise<Response>> = [];
    for (let i = 0; i < 10_000; i++) others.push(b(`${ORIGIN}/other-${i}`));
    await Promise.all(others);
    const start = clock.now();
    const fromB = b(`${ORIGIN}/hot?from=b`);
    await runUntilSettled(clock, [...fromA, fromB], 1);
    const fromBAt = server.seen.find((s) => s.url.endsWith('/hot?from=b'))!.at;
    // `b`'s call leaves after `a`'s ten, booked one per 100 ms: at ~900 ms (as it does without the
    // 10,000 other keys).
    expect(fromBAt - start).toBeGreaterThanOrEqual(800);
  }, 30_000);
});
