/**
 * README, Limits: "No in-flight cap is learned from a server without counters." TSDoc of
 * src/client/models/concurrency.ts: a refusal "says nothing about concurrency ... when the server
 * states no counters at all". A server that states its limit but no `remaining` (`X-RateLimit-Limit`
 * alone, or an IETF `RateLimit-Policy` without a `RateLimit` field) states no counters: the pacer
 * itself reads it as such (no window track), and so does the concurrency model. (It read the
 * limit-only window as counters with room left: one 429 that came while two calls sent before it
 * were in flight capped the key at 2 in flight, where the same server without the header taught
 * no cap.)
 */
import { expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { createFetch } from '../../src/index.js';

/** 16 callers for 12 s against a server that answers in 100 ms and refuses its third call once. */
async function job(headers: Record<string, string>) {
  const clock = new ManualClock(0, Date.UTC(2026, 0, 1));
  let index = 0;
  const admittedAt: number[] = [];
  const transport = async (): Promise<Response> => {
    if (index++ === 2) {
      await clock.sleep(1);
      return new Response('slow down', { status: 429, headers: { ...headers, 'retry-after': '1' } });
    }
    await clock.sleep(100);
    admittedAt.push(clock.now());
    return new Response('{}', { status: 200, headers });
  };
  const fetch = createFetch({ fetch: transport, clock, random: () => 0.5, rate: 50, burst: 5 });
  let stop = false;
  const callers = Array.from({ length: 16 }, async () => {
    while (!stop) await fetch('https://api.test/items');
  });
  for (let t = 0; t < 12_000; t += 10) await clock.advance(10);
  stop = true;
  const inFlightCap = fetch.stats()[0]?.inFlightCap;
  for (let t = 0; t < 2000; t += 10) await clock.advance(10);
  await Promise.all(callers);
  return { inFlightCap, admittedFrom2sTo12s: admittedAt.filter((t) => t >= 2000 && t < 12_000).length };
}

it('a server that states only its limit (no remaining) teaches no in-flight cap, as one that states nothing', async () => {
  const silent = await job({});
  expect(silent.inFlightCap).toBeNull();
  const limitOnly: Record<string, string>[] = [
    { 'x-ratelimit-limit': '50' },
    { 'ratelimit-policy': '"default";q=50;w=1' },
  ];
  for (const headers of limitOnly) {
    expect(await job(headers)).toEqual(silent);
  }
}, 30_000);
