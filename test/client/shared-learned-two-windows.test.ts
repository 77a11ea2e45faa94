/**
 * README, "More than one process": without a `rate`, "once a worker's pacer knows the server's
 * request rate and burst from a figure the server states — a policy ... — that worker books from
 * the shared bucket at them". A server that states two request windows (10/s, and 10,000 per day)
 * is paced by one process alone at 10/s (each window's track, the binding one decides). A fleet
 * books at the figures of the window the pacer's snapshot names: when no window holds a call, the
 * one with room for the fewest calls (the per-second one here), not the one listed first — with
 * the daily window first, that was 10,000 / 86,400 s ≈ 0.12 calls/s.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { memoryStore } from '../../src/stores/memory.js';
import { fakeFetch, runUntilSettled } from './fake-server.js';

const URL_A = 'http://127.0.0.1:9/a';

/** A server of 10/s (a bucket of 10) and 10,000 per day, stating both, the daily one first. */
function twoWindowServer(clock: ManualClock) {
  let tokens = 10;
  let last = 0;
  let day = 0;
  let refused = 0;
  const policy = '"day";q=10000;w=86400, "sec";q=10;w=1';
  const server = fakeFetch(
    clock,
    (seen): { status: number; headers: Record<string, string> } => {
      tokens = Math.min(10, tokens + ((seen.at - last) * 10) / 1000);
      last = seen.at;
      if (tokens < 1) {
        refused++;
        return { status: 429, headers: { 'ratelimit-policy': policy, 'retry-after': '1' } };
      }
      tokens -= 1;
      day++;
      const dayReset = Math.ceil((86_400_000 - seen.at) / 1000);
      return {
        status: 200,
        headers: {
          'ratelimit-policy': policy,
          ratelimit: `"day";r=${10_000 - day};t=${dayReset}, "sec";r=${Math.floor(tokens)};t=1`,
        },
      };
    },
    5,
  );
  return { ...server, refused: () => refused };
}

describe('an unconfigured fleet against a server stating two request windows', () => {
  it('books at the 10/s window, not at the daily average, when the server lists the daily window first', async () => {
    const clock = new ManualClock();
    const server = twoWindowServer(clock);
    const store = memoryStore({ clock });
    const make = () =>
      createFetch({ fetch: server.fetch, clock, store, expectedWorkers: 2, random: () => 0 });
    const [a, b] = [make(), make()];
    const calls = Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b)(URL_A));
    const results = await runUntilSettled(clock, calls, 10, 2_000_000);
    expect(results.every((r) => r.status === 'fulfilled' && r.value.status === 200)).toBe(true);
    const lastAt = Math.max(...server.seen.map((s) => s.at));
    // 40 calls at 10/s take about 4 s (one process alone, without the store: 3.3 s).
    expect(lastAt).toBeLessThan(10_000);
  }, 30_000);
});
