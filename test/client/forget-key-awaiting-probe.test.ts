/**
 * README, Client options: "past that [10,000 keys] it forgets keys at rest (no call under way,
 * nothing learned that still holds a call …), oldest first, so forgetting one never lets a call
 * go sooner." The one exception it names is a stale outage ("once its gate has stood open for
 * `backoff.capMs` … it lets a fresh key's first few calls go, not one probe"). And for a server
 * that answers only `429` + `Retry-After`: "After each gate one call goes alone, once every
 * earlier call is answered; only its admission opens the key."
 *
 * So a key refused once (429, `Retry-After: 1`) whose gate has just opened, waiting for that
 * probe, is not at rest until its hold is stale (`backoff.capMs`). (`Pacer.atRest` once asked only
 * whether its next call may go: forgotten past 10,000 keys 2 s after the refusal, the fresh key
 * sent four calls at once to the server that refused.)
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { fakeFetch, runUntilSettled } from './fake-server.js';

const ORIGIN = 'http://127.0.0.1:9';

describe('a key waiting for its probe after a 429, past 10,000 keys', () => {
  it('still sends one probe alone, not a fresh key’s first calls', async () => {
    const clock = new ManualClock();
    let hotCalls = 0;
    // /hot refuses its first call (a bare proxy: 429 + Retry-After: 1), then admits; others admit.
    const server = fakeFetch(
      clock,
      (seen) =>
        seen.url.endsWith('/hot') && hotCalls++ === 0
          ? { status: 429, headers: { 'retry-after': '1' } }
          : { status: 200 },
      5,
    );
    const fetch = createFetch({
      fetch: server.fetch,
      clock,
      random: () => 0.5,
      retries: 0,
      key: (req) => req.url.pathname,
    });
    const [refused] = await runUntilSettled(clock, [fetch(`${ORIGIN}/hot`)]);
    expect(refused).toMatchObject({ status: 'fulfilled', value: { status: 429 } });
    await clock.advance(2000); // the 1 s gate is open: the key's next call is its probe

    // 10,000 other keys, each answered: the client is at its bound and forgets idle keys.
    const others = Array.from({ length: 10_000 }, (_, i) => fetch(`${ORIGIN}/other-${i}`));
    await runUntilSettled(clock, others);

    const before = server.seen.length;
    const hot = Array.from({ length: 4 }, () => fetch(`${ORIGIN}/hot`));
    await clock.advance(1); // the probe's answer takes 5 ms: nothing else may go before it
    const sentAtOnce = server.seen.slice(before).filter((s) => s.url.endsWith('/hot')).length;
    const results = await runUntilSettled(clock, hot);
    expect(results.every((r) => r.status === 'fulfilled' && r.value.status === 200)).toBe(true);
    // Kept (no eviction), the key sends 1 here: the probe.
    expect(sentAtOnce).toBe(1);
  }, 60_000);
});
