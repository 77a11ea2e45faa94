/**
 * README (Token quotas): "Until the first answers, the token cost of an unstated call is unknown
 * […], and a window already spent by another client makes the first samples high: Headway is slow
 * for a moment, never fast." learned-costs.ts: the first reading's sample, `limit − remaining` over
 * the calls sent up to it, is "a high sample too". A token window the server reports only after
 * some calls (a first `GET /models` that reports requests alone, a gateway that adds the token
 * headers later) must not divide one call's tokens over every call the key ever sent.
 */
import { describe, expect, it } from 'vitest';
import { Pacer } from '../../src/client/pacer.js';
import { verdictOf } from '../../src/client/verdict.js';
import { readRateLimit } from '../../src/signals/read-rate-limit.js';
import { pacerOptions } from './pacer-options.js';

const requestsOnly = {
  'x-ratelimit-limit-requests': '10000',
  'x-ratelimit-remaining-requests': '9999',
  'x-ratelimit-reset-requests': '6ms',
};

/** One call sent and answered at `now`, with `headers`. */
function roundTrip(pacer: Pacer, now: number, headers: Record<string, string>) {
  const ticket = pacer.grant(1, false, 0, now);
  const signal = readRateLimit({ status: 200, headers }, { receivedAt: 0 });
  pacer.settle(ticket, verdictOf({ kind: 'response', status: 200, signal }), signal, now);
}

describe('learned cost: a token window first reported after some calls', () => {
  it('the first token reading does not spread one call over every earlier call', () => {
    const pacer = new Pacer(pacerOptions(), () => 0, 0);
    // 50 calls, one a second, answered with the request window alone.
    for (let i = 0; i < 50; i++) roundTrip(pacer, i * 1000, requestsOnly);
    // The next answer reports the token window too: the call it answers cost 1,000 of 10,000.
    roundTrip(pacer, 50_000, {
      ...requestsOnly,
      'x-ratelimit-limit-tokens': '10000',
      'x-ratelimit-remaining-tokens': '9000',
      'x-ratelimit-reset-tokens': '6s',
    });
    expect(pacer.snapshot(50_000).costs.tokens).toBeGreaterThanOrEqual(1_000);
    // At once, the 9,000 tokens left hold at most 9 such calls.
    let sent = 0;
    while (sent < 100 && pacer.delay(1, 50_000).ms === 0) {
      pacer.grant(1, false, 0, 50_000);
      sent++;
    }
    expect(sent).toBeLessThanOrEqual(9);
  });
});
