/**
 * README (Client options): "A client keeps up to 10,000 keys; past that it forgets keys at rest
 * (...), oldest first"; src/client/engine.ts: "Keep recently used keys last (eviction drops idle
 * keys from the front)". README (metrics): a key a client forgot "starts again from 0, a counter
 * reset".
 *
 * What happens instead: a used key moves to the back only once the client already holds 10,000
 * keys, so until then the order is the order keys were first seen. The first new key past 10,000
 * then forgets the key seen first — here a key in use every few seconds all along — while
 * thousands of keys used once, hours ago, stay: its stats (and what it learned) start from zero.
 *
 * Fixed on 2026-12-06 (the fifth review round): a key in use moves to the back of the client's map
 * once 5,000 keys were seen since it last moved, so a key used within the last 5,000 new keys is
 * never the one forgotten. What the text above describes is how it behaved before.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { fakeFetch } from './fake-server.js';

const ORIGIN = 'http://127.0.0.1:9';

describe('past 10,000 keys', () => {
  it('a key used a moment ago is not the one forgotten while keys used once hours ago stay', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, () => ({ status: 200 }));
    const fetch = createFetch({ fetch: server.fetch, clock, key: (req) => req.url.pathname });
    let hotCalls = 0;
    // A long-lived app: one key in use all along, and a stream of keys each used once.
    for (let i = 0; i < 10_050; i++) {
      if (i % 10 === 0) {
        await fetch(`${ORIGIN}/hot`);
        hotCalls++;
      }
      await fetch(`${ORIGIN}/once-${i}`);
      await clock.advance(1_000);
    }
    const stats = fetch.stats();
    expect(stats.length).toBe(10_000);
    const hot = stats.find((s) => s.key === '/hot');
    expect(hot?.sent).toBe(hotCalls);
  }, 60_000);
});
