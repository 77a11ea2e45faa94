/**
 * README (Token quotas): a unit the cost leaves out is learned from "how that window's `remaining`
 * moves: between two answers, what `remaining` lost plus the refill its reset states, per call sent
 * between them". A call the server refused (429) was not counted in the token window — its own
 * answer says so: `remaining` did not move — so it must not dilute the next sample: a learned cost
 * poisoned low paces too fast, the next refusals poison it lower.
 */
import { describe, expect, it } from 'vitest';
import { Pacer } from '../../src/client/pacer.js';
import { verdictOf } from '../../src/client/verdict.js';
import { readRateLimit } from '../../src/signals/read-rate-limit.js';
import { pacerOptions } from './pacer-options.js';

/** OpenAI's headers: a request window and a token window of 10,000 (no resets: nothing refills here). */
const openai = (requests: number, tokens: number) => ({
  'x-ratelimit-limit-requests': '100',
  'x-ratelimit-remaining-requests': String(requests),
  'x-ratelimit-limit-tokens': '10000',
  'x-ratelimit-remaining-tokens': String(tokens),
});

function send(pacer: Pacer, status: number, headers: Record<string, string>, now: number) {
  const ticket = pacer.grant(1, false, 0, now);
  const signal = readRateLimit({ status, headers }, { receivedAt: 0 });
  pacer.settle(ticket, verdictOf({ kind: 'response', status, signal }), signal, now);
}

describe('learned cost: a refused call counted nothing', () => {
  it('a refusal between two answers does not halve the learned cost', () => {
    const pacer = new Pacer(pacerOptions(), () => 0, 0);
    // Every answered call costs 1,000 tokens.
    send(pacer, 200, openai(99, 9_000), 0);
    // Refused for another limit: the token window did not count it (still 9,000 left).
    send(pacer, 429, { ...openai(0, 9_000), 'retry-after-ms': '10' }, 1);
    send(pacer, 200, openai(98, 8_000), 20);
    expect(pacer.snapshot(20).costs).toEqual({ tokens: 1_000 });
  });

  it('refusals do not drive the learned cost down call after call', () => {
    const pacer = new Pacer(pacerOptions(), () => 0, 0);
    let tokens = 10_000;
    let now = 0;
    for (let i = 0; i < 9; i++) {
      tokens -= 1_000;
      now += 20;
      send(pacer, 200, openai(90, tokens), now);
      now += 1;
      send(pacer, 429, { ...openai(0, tokens), 'retry-after-ms': '10' }, now);
    }
    expect(pacer.snapshot(now).costs).toEqual({ tokens: 1_000 });
  });
});
