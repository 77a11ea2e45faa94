import { describe, expect, it } from 'vitest';
import { Pacer, type Ticket } from '../../src/client/pacer.js';
import { verdictOf } from '../../src/client/verdict.js';
import { readRateLimit } from '../../src/signals/read-rate-limit.js';
import { pacerOptions } from './pacer-options.js';

const options = pacerOptions();
const noSpread = () => 0;

/** GitHub's answer: the primary window's counters, and a secondary refusal's 403 + `retry-after`. */
function github(status: number, remaining: number, retryAfter?: string) {
  const headers: Record<string, string> = {
    'x-ratelimit-limit': '100',
    'x-ratelimit-remaining': String(remaining),
    'x-ratelimit-reset': '5',
    'x-ratelimit-resource': 'core',
    ...(retryAfter ? { 'retry-after': retryAfter } : {}),
  };
  const signal = readRateLimit({ status, headers }, { receivedAt: 0 });
  return { signal, verdict: verdictOf({ kind: 'response', status, signal }) };
}

/** Sends every call `delay` lets go at `now`. */
function sendAll(pacer: Pacer, now: number, max = 100): Ticket[] {
  const tickets: Ticket[] = [];
  while (tickets.length < max && pacer.delay(1, now).ms === 0) tickets.push(pacer.grant(1, false, 0, now));
  return tickets;
}

describe('Pacer and the concurrency model', () => {
  it('learns the in-flight cap from a burst of refusals, and reopens its gate gradually', () => {
    const pacer = new Pacer(options, noSpread, 0);
    // What the primary window allows, known: 16 go at once.
    const first = pacer.grant(1, false, 0, 0);
    pacer.settle(first, github(200, 99).verdict, github(200, 99).signal, 1);
    const burst = sendAll(pacer, 2, 16);
    expect(burst).toHaveLength(16);
    // The server admits 8 at once: the other 8 are refused at once, while the 8 are in flight.
    const refused = github(403, 90, '1');
    for (const ticket of burst.slice(8)) pacer.settle(ticket, refused.verdict, refused.signal, 3);
    expect(pacer.inFlightCap).toBe(8);
    expect(pacer.delay(1, 3)).toMatchObject({ reason: 'gate' });
    const ok = github(200, 80);
    for (const ticket of burst.slice(0, 8)) pacer.settle(ticket, ok.verdict, ok.signal, 10);
    // The gate opens at 1003: one call, then one more per answer — not the 16 that wait.
    const reopened: number[] = [];
    let now = 1003;
    for (let round = 0; round < 5; round++) {
      const tickets = sendAll(pacer, now);
      reopened.push(tickets.length);
      now += 10;
      for (const ticket of tickets) pacer.settle(ticket, ok.verdict, ok.signal, now);
    }
    // 1 → 2 → 4 → 8 (the cap), and the cap holds.
    expect(reopened).toEqual([1, 2, 4, 8, 8]);
  });

  it('refusals of the primary window (remaining 0) teach no concurrency cap', () => {
    const pacer = new Pacer(options, noSpread, 0);
    const tickets = sendAll(pacer, 0, 4);
    const exhausted = github(403, 0, '3');
    for (const ticket of tickets) pacer.settle(ticket, exhausted.verdict, exhausted.signal, 1);
    expect(pacer.inFlightCap).toBeNull();
  });

  it('maxConcurrent still bounds a key the server never refused', () => {
    const pacer = new Pacer({ ...options, maxInFlight: 3 }, noSpread, 0);
    const first = pacer.grant(1, false, 0, 0);
    pacer.settle(first, github(200, 99).verdict, github(200, 99).signal, 1);
    expect(sendAll(pacer, 2)).toHaveLength(3);
    expect(pacer.inFlightCap).toBeNull();
  });
});
