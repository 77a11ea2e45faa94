import { describe, expect, it } from 'vitest';
import { Pacer } from '../../src/client/pacer.js';
import { readRateLimit } from '../../src/signals/read-rate-limit.js';
import type { RateLimitSignal } from '../../src/signals/signal.js';

/** A signal that says only `fields` (the rest as from a response without rate-limit headers). */
function signal(fields: Partial<RateLimitSignal>): RateLimitSignal {
  return { ...readRateLimit({ status: 200, headers: {} }), dialect: 'draft-6', ...fields };
}

/** Sends `n` units at `now`, returns the mark of the last. */
function send(pacer: Pacer, n: number, now: number): number {
  let mark = 0;
  for (let i = 0; i < n; i++) mark = pacer.consume(1, now);
  return mark;
}

describe('Pacer', () => {
  it('configured: keeps one token of the burst as a cushion, then paces exactly', () => {
    const pacer = new Pacer(10, 5, 0);
    send(pacer, 4, 0);
    // Four in flight, one left and a cushion of one: only an answer can help.
    expect(pacer.delayFor(1, 0)).toBe(Number.POSITIVE_INFINITY);
    for (let i = 0; i < 4; i++) pacer.release(1, 0);
    expect(pacer.delayFor(1, 0)).toBe(100);
    expect(pacer.delayFor(1, 100)).toBe(0);
  });

  it('configured: a server reporting less re-syncs the bucket down, never up', () => {
    const pacer = new Pacer(10, 5, 0);
    const mark = send(pacer, 1, 0);
    pacer.release(1, 1);
    pacer.observe(mark, signal({ limit: 5, remaining: 0, resetInMs: 1000 }), 200, 1);
    expect(pacer.snapshot(1).tokens).toBeLessThan(1);
    const mark2 = send(pacer, 0, 1) || mark;
    pacer.observe(mark2 + 1, signal({ limit: 5, remaining: 5 }), 200, 2);
    expect(pacer.snapshot(2).tokens).toBeLessThan(1.1);
  });

  it('never counts on more than burst − in flight: a full server cannot bank refill', () => {
    const pacer = new Pacer(100, 20, 0);
    send(pacer, 15, 0);
    // A long time passes with all 15 still in flight: at most 20 − 15 are available.
    expect(pacer.snapshot(10_000).tokens).toBe(5);
    for (let i = 0; i < 15; i++) pacer.release(1, 10_000);
    expect(pacer.snapshot(10_000).tokens).toBe(5);
    expect(pacer.snapshot(10_200).tokens).toBe(20);
  });

  it('learns the refill rate from how remaining moves against what was sent', () => {
    const pacer = new Pacer(undefined, undefined, 0);
    const first = send(pacer, 1, 0);
    pacer.release(1, 1);
    pacer.observe(first, signal({ limit: 20, remaining: 10, resetInMs: 1000 }), 200, 1);
    const last = send(pacer, 22, 50);
    for (let i = 0; i < 22; i++) pacer.release(1, 101);
    // 22 sent, remaining 10 → 8: the server refilled 20 units in 100 ms.
    pacer.observe(last, signal({ limit: 20, remaining: 8, resetInMs: 1000 }), 200, 101);
    // The burst is bounded by the stated limit and by the most ever seen left (10 + 1).
    expect(pacer.snapshot(101)).toMatchObject({ rate: 200, burst: 11, source: 'estimate' });
  });

  it('until an estimate exists, (limit − remaining) / reset is a floor rate', () => {
    const pacer = new Pacer(undefined, undefined, 0);
    const mark = send(pacer, 1, 0);
    pacer.release(1, 0);
    pacer.observe(mark, signal({ limit: 20, remaining: 15, resetInMs: 1000 }), 200, 0);
    expect(pacer.snapshot(0)).toMatchObject({ rate: 5, source: 'reset' });
  });

  it('remaining 0 with no measured rate holds the key until the reset', () => {
    const pacer = new Pacer(undefined, undefined, 0);
    const mark = send(pacer, 1, 0);
    pacer.release(1, 0);
    pacer.observe(mark, signal({ limit: 5, remaining: 0, resetInMs: 250 }), 200, 0);
    expect(pacer.delayFor(1, 0)).toBe(250);
    expect(pacer.delayFor(1, 250)).toBe(0);
  });

  it('an IETF policy gives the sustained rate at once', () => {
    const pacer = new Pacer(undefined, undefined, 0);
    const mark = send(pacer, 1, 0);
    pacer.release(1, 0);
    const policy = {
      name: 'p',
      quota: 100,
      windowMs: 60_000,
      remaining: 40,
      resetInMs: 1000,
      partitionKey: null,
      unit: 'requests',
    };
    pacer.observe(mark, signal({ dialect: 'ietf', limit: 100, remaining: 40, policies: [policy] }), 200, 0);
    expect(pacer.snapshot(0).rate).toBeCloseTo(100 / 60, 10);
    expect(pacer.snapshot(0).source).toBe('policy');
  });

  it('no counters: one cut per episode, slow start from the gate, then halving', () => {
    const pacer = new Pacer(undefined, undefined, 0);
    for (let i = 0; i < 20; i++) pacer.recover(0);
    const marks = Array.from({ length: 4 }, () => pacer.consume(1, 0));
    for (const mark of marks) pacer.cut(mark, 1000, 5);
    // 20 got through before the first refusal, Retry-After 1 s: start at 40/s, cut once only.
    expect(pacer.snapshot(5)).toMatchObject({ rate: 40, source: 'aimd' });
    // The key is gated until 1005: no growth before, one step as it opens.
    pacer.recover(300);
    expect(pacer.snapshot(300).rate).toBe(40);
    pacer.recover(1005);
    expect(pacer.snapshot(1005).rate).toBe(60);
    // One send since the gate opened: nothing measured, so halve.
    const refused = pacer.consume(1, 1005);
    pacer.cut(refused, 1000, 1006);
    expect(pacer.snapshot(1006).rate).toBe(30);
    // Clean time counts from 2006; it adds back (0.95 × 60 − 30) / 4 per second.
    pacer.recover(2006);
    expect(pacer.snapshot(2006).rate).toBe(30);
    pacer.recover(3006);
    expect(pacer.snapshot(3006).rate).toBeCloseTo(36.75, 10);
  });

  it('no counters: a refusal after slow start cuts to the rate the server admitted, then grows gently', () => {
    const pacer = new Pacer(undefined, undefined, 0);
    for (let i = 0; i < 20; i++) pacer.recover(0);
    pacer.cut(pacer.consume(1, 0), 1000, 5);
    // The gate opens at 1005; slow start: 60, 90, 135, 202.5, 303.75 every 250 ms.
    // 200 sends at 5 ms intervals get through, then the one at 2005 is refused.
    for (let i = 0; i < 200; i++) {
      const now = 1005 + i * 5;
      pacer.recover(now);
      pacer.consume(1, now);
    }
    pacer.recover(2005);
    expect(pacer.snapshot(2005).rate).toBeCloseTo(303.75, 10);
    const refused = pacer.consume(1, 2005);
    pacer.cut(refused, 1000, 2006);
    // At most 20 (what got through before the first refusal) came from the server's bucket:
    // the other 180 of the 200 sent in the last second were refill, so the rate is ≥ 180/s
    // (halving would give 151.875).
    expect(pacer.snapshot(2006).rate).toBeCloseTo(180, 10);
    // Growth is gentle: (0.95 × 303.75 − 180) / 4 per second of clean time after the gate.
    pacer.recover(3006);
    pacer.recover(4006);
    expect(pacer.snapshot(4006).rate).toBeCloseTo(180 + (0.95 * 303.75 - 180) / 4, 10);
  });

  it('no counters: the admitted-rate bound never lifts the rate above 95 % of the refused one', () => {
    const pacer = new Pacer(undefined, undefined, 0);
    pacer.recover(0);
    pacer.cut(pacer.consume(1, 0), 1000, 0);
    // Rate 2/s from 1 success (no growth yet); 100 sends in 100 ms got through anyway (not a token bucket).
    for (let i = 0; i < 100; i++) pacer.consume(1, 1000 + i);
    pacer.cut(pacer.consume(1, 1100), 1000, 1100);
    expect(pacer.snapshot(1100).rate).toBeCloseTo(0.95 * 2, 10);
  });
});
