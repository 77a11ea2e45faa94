/**
 * A token bucket of 100/s (burst 20, IETF `q=100;w=1`) behind one origin, where only one endpoint
 * (`/status`, polled about every 3 s) states the counters and the endpoint doing the work (`/items`)
 * states none; both count against the same bucket.
 *
 * README ("How Headway reads a server"): the bucket model paces a token bucket at its stated rate
 * (`q / w`); forgetting the windows is for "a server that stops stating counters (a proxy put in
 * front now strips them)", and `pacer.ts` (`COUNTERS_GONE_MS`) promises answers of endpoints that
 * state none "between those that do, never forget them". Before today's change (a17ddfd) this key
 * was paced at the stated 100/s from its first `/status` answer on: 0 refusals, ~100 admitted a
 * second.
 *
 * What happens instead: whenever more than 2 s pass between two `/status` answers, the key forgets
 * the bucket (its stated rate included) and starts a fresh no-counters model, unpaced until it is
 * refused: a blind burst every few seconds, 7 refusals each time and the gate's whole second lost
 * (1,280 admitted in 20 s instead of 2,016).
 *
 * Fixed on 2026-12-06 (a review of the day's changes): the windows are forgotten only at a refusal
 * without counters 2 s after the last answer that stated them; an endpoint that states none forgets
 * nothing. What the text above describes is how it behaved before.
 */
import { describe, expect, it } from 'vitest';
import { runWithPartialCounters } from './partial-counters-server.js';

describe('a token bucket (100/s, IETF) whose counters only one polled endpoint of the origin states', () => {
  it('the stated rate keeps pacing the key between the answers that state it: no 429', async () => {
    const run = await runWithPartialCounters({
      server: { policy: { rate: 100, burst: 20 }, algorithm: 'token-bucket', headers: 'ietf' },
      keepCounters: (url) => url.endsWith('/status'),
      // Caller 0 polls `/status` every 40th call (about every 3 s at ~12 calls a second).
      urlOf: (caller, n) =>
        caller === 0 && n % 40 === 0 ? 'http://api.test/status' : 'http://api.test/items',
      callers: 8,
      oneWayMs: 2,
      seconds: 20,
    });
    expect.soft(run.refused).toEqual(run.refused.map(() => 0));
    const admitted = run.admitted.reduce((a, b) => a + b, 0);
    expect(admitted).toBeGreaterThanOrEqual(1900);
  });
});
