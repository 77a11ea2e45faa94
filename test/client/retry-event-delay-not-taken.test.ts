/**
 * README "Events and stats": `fetch.onRetry((e) => log.info('retry', e.key, e.attempt, e.status,
 * e.delayMs, e.reason))` — a call "is about to be retried" (RetryEvent) after `delayMs`. The retry
 * is then held by the key's pacer, which the event's delay counts: a refused probe doubles the
 * key's hold (README "How Headway reads a server": `Retry-After` × 2ᵏ) and an outage's gate holds
 * `ceiling/2 … ceiling`. (The event once reported the engine's own hint or jitter alone: a log read
 * "retry in 2000 ms" for a retry sent 4000 ms later, or "in 0 ms" for one sent 50 ms later.)
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { fakeFetch, runUntilSettled } from './fake-server.js';

const URL_A = 'http://127.0.0.1:9/a';

describe('onRetry delayMs is the wait the retry then takes', () => {
  it('a 429 + Retry-After: 2 refused again: the second retry waits 4 s, and says so', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, (_s, i) =>
      i < 2 ? { status: 429, headers: { 'retry-after': '2' } } : { status: 200 },
    );
    // random 0: no gate spread, no jitter.
    const fetch = createFetch({ fetch: server.fetch, clock, random: () => 0 });
    const delays: number[] = [];
    fetch.onRetry((e) => delays.push(e.delayMs));
    const [result] = await runUntilSettled(clock, [fetch(URL_A)], 10);
    expect(result).toMatchObject({ status: 'fulfilled', value: { status: 200 } });
    const sentAt = server.seen.map((s) => s.at);
    expect(sentAt).toEqual([0, 2000, 6000]);
    const taken = [sentAt[1]! - sentAt[0]!, sentAt[2]! - sentAt[1]!];
    expect(delays).toEqual(taken);
  });

  it('a 503 without a hint: the retry the event announces in 0 ms leaves 50 ms later', async () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, (_s, i) => (i === 0 ? { status: 503 } : { status: 200 }));
    const fetch = createFetch({ fetch: server.fetch, clock, random: () => 0 });
    const delays: number[] = [];
    fetch.onRetry((e) => delays.push(e.delayMs));
    const [result] = await runUntilSettled(clock, [fetch(URL_A)], 1);
    expect(result).toMatchObject({ status: 'fulfilled', value: { status: 200 } });
    const sentAt = server.seen.map((s) => s.at);
    expect(sentAt).toHaveLength(2);
    expect(delays).toEqual([sentAt[1]! - sentAt[0]!]);
  });
});
