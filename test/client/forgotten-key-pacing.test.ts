/**
 * Past 10,000 keys the client forgets idle keys, oldest first (src/client/engine.ts: `#laneFor`).
 * "Idle" is read as: no call under way, nothing in flight, the gate open (src/client/key-lane.ts:
 * `idle`). A key whose pacing still holds its next call — a window the server reported spent, a
 * configured bucket just emptied — is no fresh key: forgetting it makes its next call go at once,
 * which the server refuses. README: "`remaining: 0` holds the key until the next unit is expected
 * back"; `rate` is the "sustained calls (cost units) per second, per key".
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { fakeFetch } from './fake-server.js';

const ORIGIN = 'http://127.0.0.1:9';

/** Sends one call to each of `n` other keys (each answered at once), so the client reaches 10,000 keys. */
async function manyOtherKeys(fetch: (url: string) => Promise<Response>, n: number): Promise<void> {
  const calls: Array<Promise<Response>> = [];
  for (let i = 0; i < n; i++) calls.push(fetch(`${ORIGIN}/other-${i}`));
  await Promise.all(calls);
}

describe('a key forgotten past 10,000 keys', () => {
  it('a key whose window is spent (remaining 0, reset in 60 s) still holds its next call', async () => {
    const clock = new ManualClock();
    const spent = { 'x-ratelimit-limit': '1', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '60' };
    const server = fakeFetch(clock, (seen) =>
      seen.url.endsWith('/hot') ? { status: 200, headers: spent } : { status: 200 },
    );
    const fetch = createFetch({ fetch: server.fetch, clock, key: (req) => req.url.pathname });
    await fetch(`${ORIGIN}/hot`); // the window is spent until t = 60 s
    await manyOtherKeys(fetch, 10_000);
    let sent = false;
    const next = fetch(`${ORIGIN}/hot`).then(() => {
      sent = true;
    });
    await clock.advance(1_000);
    expect(sent).toBe(false);
    const hot = server.seen.filter((s) => s.url.endsWith('/hot'));
    expect(hot.map((s) => s.at)).toEqual([0]);
    await clock.advance(60_000);
    await next;
  });

  it('a key with a configured rate of 1/s sends no second call within the same second', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, () => ({ status: 200 }));
    const fetch = createFetch({
      fetch: server.fetch,
      clock,
      key: (req) => req.url.pathname,
      policyFor: (key) => (key === '/hot' ? { rate: 1, burst: 1 } : undefined),
    });
    await fetch(`${ORIGIN}/hot`); // the bucket of 1 is empty until t = 1 s
    await manyOtherKeys(fetch, 10_000);
    const next = fetch(`${ORIGIN}/hot`);
    await clock.advance(500);
    const hot = server.seen.filter((s) => s.url.endsWith('/hot'));
    expect(hot.map((s) => s.at)).toEqual([0]);
    await clock.advance(1_000);
    await next;
  });
});
