/** The pacer with costs per unit: a token window beside the request window. */
import { describe, expect, it } from 'vitest';
import type { Costs } from '../../src/client/cost.js';
import { Pacer, type Ticket } from '../../src/client/pacer.js';
import { verdictOf } from '../../src/client/verdict.js';
import { readRateLimit } from '../../src/signals/read-rate-limit.js';
import { pacerOptions } from './pacer-options.js';

const pacerOf = (rate?: number) => new Pacer(pacerOptions({ rate }), () => 0, 0);

/** OpenAI's headers: 100 requests and 1,000 tokens, each refilled to full in 1 s. */
const openai = (requests: number, tokens: number) => ({
  'x-ratelimit-limit-requests': '100',
  'x-ratelimit-remaining-requests': String(requests),
  'x-ratelimit-reset-requests': `${(100 - requests) * 10}ms`,
  'x-ratelimit-limit-tokens': '1000',
  'x-ratelimit-remaining-tokens': String(tokens),
  'x-ratelimit-reset-tokens': `${1000 - tokens}ms`,
});

/** Sends a call of `costs` at `now`; the answer reports `headers`. */
function roundTrip(pacer: Pacer, costs: Costs | number, now: number, headers: Record<string, string>) {
  const ticket = pacer.grant(costs, false, 0, now);
  const signal = readRateLimit({ status: 200, headers }, { receivedAt: 0 });
  pacer.settle(ticket, verdictOf({ kind: 'response', status: 200, signal }), signal, now);
  return ticket;
}

describe('Pacer, costs per unit', () => {
  it('paces the token window when it binds, in tokens; the request window has room', () => {
    const pacer = pacerOf();
    const call = { requests: 1, tokens: 430 };
    expect(pacer.delay(call, 0).ms).toBe(0);
    roundTrip(pacer, call, 0, openai(99, 570));
    expect(pacer.delay(call, 0).ms).toBe(0);
    roundTrip(pacer, call, 0, openai(98, 140));
    // 140 tokens left, refilling 1 per ms (860 back by the 860 ms reset): 430 and a cushion of 2
    // are there in 292 ms. A call of 100 tokens fits now.
    expect(pacer.delay(call, 0)).toMatchObject({ ms: 292, reason: 'pacing', window: 'tokens:tokens' });
    expect(pacer.delay({ requests: 1, tokens: 100 }, 0).ms).toBe(0);
  });

  it('books each unit of a ticket: marks and costs per unit, learned units included', () => {
    const pacer = pacerOf();
    const first = roundTrip(pacer, { tokens: 430 }, 0, openai(99, 570));
    expect(first).toMatchObject({
      cost: 1,
      mark: 1,
      costs: { requests: 1, tokens: 430 },
      marks: { tokens: 430 },
    });
    // A call that states no tokens books what was learned: 430 counted for the one call sent.
    const second = pacer.grant(1, false, 0, 0);
    expect(second).toMatchObject({
      costs: { requests: 1, tokens: 430 },
      marks: { requests: 2, tokens: 860 },
    });
  });

  it('with no cost stated, learns what a call costs in tokens from how remaining moves', () => {
    const pacer = pacerOf();
    roundTrip(pacer, 1, 0, openai(99, 570));
    roundTrip(pacer, 1, 0, openai(98, 140));
    // Learned: 430 tokens a call, so the next call waits for the token window as a stated one would.
    expect(pacer.delay(1, 0)).toMatchObject({ ms: 292, window: 'tokens:tokens' });
    expect(pacer.snapshot(0)).toMatchObject({ unit: 'tokens', tokens: 140, costs: { tokens: 430 } });
  });

  it('a configured request rate does not silence the token window', () => {
    const pacer = pacerOf(1000);
    roundTrip(pacer, { tokens: 430 }, 0, openai(99, 570));
    roundTrip(pacer, { tokens: 430 }, 0, openai(98, 140));
    expect(pacer.delay({ tokens: 430 }, 0)).toMatchObject({ ms: 292, window: 'tokens:tokens' });
  });

  it('a settled cost corrects what is learned for a unit the cost leaves out', () => {
    const pacer = pacerOf();
    const ticket = roundTrip(pacer, 1, 0, openai(99, 570));
    for (let i = 0; i < 2; i++) pacer.settleCost(ticket, { tokens: 100 });
    // Samples 430 (from remaining), 100 and 100: the median is 100.
    expect(pacer.grant(1, false, 0, 0).costs).toEqual({ requests: 1, tokens: 100 });
  });

  it("a token refusal with fewer tokens left than the call costs is the token window's: no cap on calls in flight", () => {
    const pacer = pacerOf();
    const call = { requests: 1, tokens: 100 };
    roundTrip(pacer, call, 0, openai(99, 900));
    // Four calls in flight; the last is refused for tokens: 50 left, below its 100 (OpenAI states
    // the wait in `retry-after-ms`). The token window explains it, not a limit on calls in flight.
    const tickets = [1, 2, 3, 4].map(() => pacer.grant(call, false, 0, 1));
    const refusal = readRateLimit(
      { status: 429, headers: { ...openai(95, 50), 'retry-after-ms': '300' } },
      {
        receivedAt: 0,
      },
    );
    pacer.settle(tickets[3]!, verdictOf({ kind: 'response', status: 429, signal: refusal }), refusal, 2);
    expect(pacer.inFlightCap).toBeNull();
    expect(pacer.delay(call, 2)).toMatchObject({ reason: 'gate' });
    const full = readRateLimit({ status: 200, headers: openai(95, 1000) }, { receivedAt: 0 });
    const answer = (ticket: Ticket, now: number) =>
      pacer.settle(ticket, verdictOf({ kind: 'response', status: 200, signal: full }), full, now);
    for (const ticket of tickets.slice(0, 3)) answer(ticket, 3);
    // After the gate the key reopens one call, then one more per answer, until the four in flight
    // when the refusal came; then as many as the windows allow (8 a round here) — never held at the
    // three that were in flight beside the refused call.
    const sent: number[] = [];
    for (let now = 400; now < 440; now += 10) {
      const round: Ticket[] = [];
      while (round.length < 8 && pacer.delay(call, now).ms === 0)
        round.push(pacer.grant(call, false, 0, now));
      sent.push(round.length);
      for (const ticket of round) answer(ticket, now + 5);
    }
    expect(sent).toEqual([1, 2, 8, 8]);
  });
});
