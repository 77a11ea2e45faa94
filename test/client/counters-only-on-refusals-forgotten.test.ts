/**
 * A fixed window of 100 per second whose server states its counters (IETF `RateLimit` /
 * `RateLimit-Policy`) only on its 429s, beside `Retry-After`; its 200s carry none.
 *
 * README ("How Headway reads a server"): the forgetting of windows is for "a server that stops
 * stating counters (a proxy put in front now strips them)"; `pacer.ts` (`COUNTERS_GONE_MS`) says the
 * 2 s are "long enough that answers of a few endpoints that state none, between those that do,
 * never forget them". This server never stopped stating counters: every refusal states them. Before
 * today's change (a17ddfd) the key was refused once, in its blind first burst, and never again.
 *
 * What happens instead: 2 s of admitted answers without counters after the last refusal make the
 * key forget the windows the refusal stated and start a fresh no-counters model, which is unpaced
 * until its first refusal: a blind burst into the window, 8 refusals (one per caller), every
 * other second for as long as the client runs (80 in 20 s instead of 8).
 *
 * Fixed on 2026-12-06 (a review of the day's changes): the windows are forgotten only at a refusal
 * without counters; a server that states its counters on its refusals forgets nothing. What the
 * text above describes is how it behaved before.
 */
import { describe, expect, it } from 'vitest';
import { runWithPartialCounters } from './partial-counters-server.js';

describe('a fixed window (100 per second) that states its counters only on its 429s', () => {
  it.each(['ietf', 'x-ratelimit'] as const)(
    '%s: after the first burst, the windows a refusal stated are not forgotten into a new blind burst',
    async (headers) => {
      const run = await runWithPartialCounters({
        server: { policy: { limit: 100, windowMs: 1000 }, algorithm: 'fixed-window', headers },
        keepCounters: (_url, status) => status === 429,
        callers: 8,
        oneWayMs: 2,
        seconds: 20,
      });
      const late = run.refused.slice(2);
      // before a17ddfd).
      expect(late).toEqual(late.map(() => 0));
    },
  );
});
