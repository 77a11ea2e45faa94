/**
 * README, "Many processes, one quota": "a fleet's first calls — up to each worker's first window
 * of 4 — go before any booking; against a server whose burst is smaller than 4 × workers, the first
 * wave's calls beyond the burst are refused (4 workers against a burst of 4: up to 12) and the
 * `Retry-After` gates everyone". (It said "up to the burst are refused", which holds only for a
 * burst of at least 2 × workers.) Each unconfigured worker sends its first window of 4 unbooked
 * (src/client/shared-quota.ts: `book` asks only the gate until `learn` sets the figures); after
 * that wave, nothing more is refused, and every call ends answered.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { memoryStore } from '../../src/stores/memory.js';
import { fakeFetch, runUntilSettled } from './fake-server.js';

const URL_A = 'http://127.0.0.1:9/a';

/**
 * A token-bucket server (`rate`/s, burst `burst`) that states its policy on every answer, a
 * refusal included (as Headway's own limiter does), and refuses with `Retry-After: 1`.
 */
function bucketServer(clock: ManualClock, rate: number, burst: number) {
  let tokens = burst;
  let last = 0;
  let refused = 0;
  const server = fakeFetch(
    clock,
    (seen) => {
      tokens = Math.min(burst, tokens + ((seen.at - last) * rate) / 1000);
      last = seen.at;
      const policy = { 'ratelimit-policy': `"p";q=${rate};w=1` };
      if (tokens < 1) {
        refused++;
        return { status: 429, headers: { ...policy, ratelimit: '"p";r=0;t=1', 'retry-after': '1' } };
      }
      tokens -= 1;
      return { status: 200, headers: { ...policy, ratelimit: `"p";r=${Math.floor(tokens)};t=1` } };
    },
    5,
  );
  return { ...server, refused: () => refused };
}

describe('an unconfigured fleet sharing a store, against a server whose burst is below its first calls', () => {
  it('has at most the first wave beyond the burst refused (4 workers, a server of 20/s with a burst of 4)', async () => {
    const clock = new ManualClock();
    const server = bucketServer(clock, 20, 4);
    const store = memoryStore({ clock });
    const workers = Array.from({ length: 4 }, () =>
      createFetch({ fetch: server.fetch, clock, store, expectedWorkers: 4, random: () => 0 }),
    );
    const calls = workers.flatMap((fetch) => Array.from({ length: 10 }, () => fetch(URL_A)));
    const results = await runUntilSettled(clock, calls, 5);
    expect(results.every((r) => r.status === 'fulfilled' && r.value.status === 200)).toBe(true);
    expect(server.refused()).toBeLessThanOrEqual(4 * 4 - 4);
  });
});
