/**
 * README, "GitHub and Octokit": a refusal of a call that reached the server while calls sent
 * before it were there says the server admits at most that many at once — counting "the calls
 * still in flight when the refusal comes and those admitted and answered since the refused call
 * left". A server that admits 8 at once and takes 20 ms to refuse a ninth, while 7 of the 8 are
 * answered, teaches a cap of 8 (it taught 1 when only the calls still in flight counted, and the
 * key then ran one call at a time, growing back by one per 30 s).
 */
import { expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { createFetch } from '../../src/index.js';

/** A GitHub-shaped server: at most 8 calls in flight (403 + `retry-after: 1`, 20 ms to refuse). */
function gitHubServer(clock: ManualClock) {
  const reset = String(Math.floor(clock.wallNow() / 1000) + 3600);
  let remaining = 5000;
  let inFlight = 0;
  const server = { peakFrom: Number.POSITIVE_INFINITY, peak: 0, admittedFrom: 0 };
  const fetch = async (input: RequestInfo | URL): Promise<Response> => {
    const headers = (): Record<string, string> => ({
      'x-ratelimit-limit': '5000',
      'x-ratelimit-remaining': String(remaining),
      'x-ratelimit-reset': reset,
      'x-ratelimit-resource': 'core',
    });
    if (inFlight >= 8) {
      await clock.sleep(20);
      return new Response('You have exceeded a secondary rate limit', {
        status: 403,
        headers: { ...headers(), 'retry-after': '1' },
      });
    }
    inFlight++;
    remaining--;
    if (clock.now() >= server.peakFrom) {
      server.peak = Math.max(server.peak, inFlight);
      server.admittedFrom++;
    }
    await clock.sleep(String(input).endsWith('/slow') ? 500 : 100);
    inFlight--;
    return new Response('{}', { status: 200, headers: headers() });
  };
  return { fetch, server };
}

it('a server seen to admit 8 at once is not capped at 1 because 7 of them were answered while its refusal of a 9th was on its way', async () => {
  const clock = new ManualClock(0, Date.UTC(2026, 0, 1));
  const { fetch: transport, server } = gitHubServer(clock);
  const fetch = createFetch({ fetch: transport, clock, random: () => 0.5 });
  const calls: Promise<unknown>[] = [];
  // One call first: the primary window (plenty of room) is known.
  calls.push(fetch('https://api.test/items'));
  await clock.advance(100);
  // 8 at once, all admitted (one of them slow), then a 9th while the server still runs all 8.
  for (let i = 0; i < 7; i++) calls.push(fetch('https://api.test/items'));
  calls.push(fetch('https://api.test/slow'));
  await clock.advance(95);
  calls.push(fetch('https://api.test/items')); // refused at 215 ms; 7 of the 8 were answered at 200 ms
  await clock.advance(25);
  const learned = fetch.stats()[0]?.inFlightCap;
  // Then 16 callers for 12 s: the server admits 8 at once all along.
  let stop = false;
  const callers = Array.from({ length: 16 }, async () => {
    while (!stop) await fetch('https://api.test/items');
  });
  server.peakFrom = 2000;
  for (let t = clock.now(); t < 12_000; t += 10) await clock.advance(10);
  stop = true;
  for (let t = 0; t < 2000; t += 10) await clock.advance(10);
  await Promise.all([...calls, ...callers]);
  expect({
    learned,
    peakInFlight: server.peak,
    admittedFrom2sAtLeast600: server.admittedFrom >= 600,
  }).toEqual({
    learned: 8,
    peakInFlight: 8,
    admittedFrom2sAtLeast600: true,
  });
}, 30_000);
