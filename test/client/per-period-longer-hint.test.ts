/**
 * The concurrency model's calls-per-period limit, against a server with two secondary limits that
 * answer with different retry hints (GitHub: per second, and per minute): a per-minute refusal
 * must not turn the per-second count into a per-minute one.
 */
import { expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { createFetch } from '../../src/index.js';
import { fakeFetch } from './fake-server.js';

it('a per-minute refusal (retry-after 60) after a per-second one (retry-after 1) keeps the key near 200 a minute, not 9', async () => {
  const clock = new ManualClock(0, Date.UTC(2026, 0, 1));
  // Primary window with plenty of room (GitHub's x-ratelimit-*); secondary limits, each a sliding
  // log of admitted calls: 10 per second (refused with retry-after 1) and 200 per minute (refused
  // with retry-after 60).
  const admitted: number[] = [];
  let primary = 5000;
  const reset = String(Math.floor(Date.UTC(2026, 0, 1) / 1000) + 3600);
  const { fetch: transport } = fakeFetch(
    clock,
    ({ at }) => {
      const inSecond = admitted.filter((t) => t > at - 1000).length;
      const inMinute = admitted.filter((t) => t > at - 60_000).length;
      const headers: Record<string, string> = { 'x-ratelimit-limit': '5000', 'x-ratelimit-reset': reset };
      if (inSecond >= 10 || inMinute >= 200) {
        headers['x-ratelimit-remaining'] = String(primary);
        headers['retry-after'] = inMinute >= 200 ? '60' : '1';
        return { status: 429, headers };
      }
      admitted.push(at);
      headers['x-ratelimit-remaining'] = String(--primary);
      return { status: 200, headers };
    },
    5,
  );
  const fetch = createFetch({ fetch: transport, clock, random: () => 0.5, retries: 5 });
  let stop = false;
  const caller = async () => {
    while (!stop) await fetch('http://api.test/items').catch(() => {});
  };
  const callers = Array.from({ length: 4 }, caller);
  for (let ms = 0; ms < 360_000; ms += 5) await clock.advance(5);
  stop = true;
  for (let ms = 0; ms < 120_000; ms += 50) await clock.advance(50);
  await Promise.all(callers);
  // The first minute spends the 200 and meets the per-minute limit (refused with retry-after 60).
  // From then on the server admits 200 per minute (10 per second): a client that keeps to both
  // limits admits close to 200 in each later minute.
  const perMinute = [2, 3, 4, 5].map(
    (m) => admitted.filter((t) => t >= m * 60_000 && t < (m + 1) * 60_000).length,
  );
  // only grows, `perPeriod` only shrinks), and the log it counts from holds only 1.05 s of sends.
  expect({ perMinute, eachAtLeast100: perMinute.every((n) => n >= 100) }).toMatchObject({
    eachAtLeast100: true,
  });
}, 60_000);
