import { describe, expect, it } from 'vitest';
import { Pacer } from '../../src/client/pacer.js';
import { verdictOf } from '../../src/client/verdict.js';
import { readRateLimit } from '../../src/signals/read-rate-limit.js';
import { pacerOptions } from './pacer-options.js';

const options = pacerOptions;
const noSpread = () => 0;

/** A response's signal and verdict. */
function response(status: number, headers: Record<string, string> = {}) {
  const signal = readRateLimit({ status, headers }, { receivedAt: 0 });
  return { signal, verdict: verdictOf({ kind: 'response', status, signal }) };
}

/** Sends one unit at `now` and answers it with `status` and `headers`. */
function roundTrip(pacer: Pacer, now: number, status: number, headers: Record<string, string> = {}) {
  const ticket = pacer.grant(1, pacer.delay(1, now).probe, 0, now);
  const { signal, verdict } = response(status, headers);
  return pacer.settle(ticket, verdict, signal, now);
}

describe('Pacer', () => {
  it('a retry hint closes the gate for every call, and only extends', () => {
    const pacer = new Pacer(options(), noSpread, 0);
    expect(roundTrip(pacer, 0, 429, { 'retry-after': '2' })).toBe(2000);
    expect(pacer.delay(1, 0)).toMatchObject({ ms: 2000, reason: 'gate' });
    roundTrip(pacer, 500, 429, { 'retry-after': '1' });
    expect(pacer.delay(1, 500).ms).toBe(1500);
  });

  it('an outage backs off, then lets one probe through at a time; an answer ends it', () => {
    const pacer = new Pacer(options(), () => 1, 0);
    roundTrip(pacer, 0, 503);
    const gated = pacer.delay(1, 0);
    expect(gated.reason).toBe('outage');
    const after = gated.ms;
    const probe = pacer.delay(1, after);
    expect(probe).toMatchObject({ ms: 0, probe: true });
    const ticket = pacer.grant(1, true, 0, after);
    expect(pacer.delay(1, after)).toMatchObject({ ms: Number.POSITIVE_INFINITY, reason: 'outage' });
    const { signal, verdict } = response(200);
    pacer.settle(ticket, verdict, signal, after);
    expect(pacer.delay(1, after)).toMatchObject({ ms: 0, probe: false });
    expect(pacer.inOutage).toBe(false);
  });

  it('before anything is known, keeps a small window in flight; a refusal halves it', () => {
    const pacer = new Pacer(options(), noSpread, 0);
    const tickets = Array.from({ length: 4 }, () => pacer.grant(1, false, 0, 0));
    expect(pacer.delay(1, 0).ms).toBe(Number.POSITIVE_INFINITY);
    const { signal, verdict } = response(429);
    pacer.settle(tickets[0]!, verdict, signal, 0);
    // Three in flight, and the window is now two.
    expect(pacer.delay(1, 0).ms).toBe(Number.POSITIVE_INFINITY);
  });

  it('paces on every window the server reports: the binding one decides', () => {
    const pacer = new Pacer(options(), noSpread, 0);
    // A per-second window that refills as a bucket does, and a per-minute window of 300 that is
    // spent over 1.2 s without any refill (a window), reset 30 s after the last answer.
    for (let i = 0; i < 300; i++) {
      const headers = {
        'ratelimit-policy': '"second";q=1000;w=1, "minute";q=300;w=60',
        ratelimit: `"second";r=999;t=1, "minute";r=${299 - i};t=30`,
      };
      roundTrip(pacer, i * 4, 200, headers);
    }
    const delay = pacer.delay(1, 1200);
    expect(delay).toMatchObject({ reason: 'pacing', window: 'requests:minute' });
    // The first unit counted is back 30 s after its answer (at 0), as that answer said; that first
    // return is tested one unit's share of the window (60 s / 300) and 2 ms of clock slack later.
    expect(delay.ms).toBe(28_800 + 202);
  });

  it('a configured bucket governs a bucket server, the server governs once its counters show a window', () => {
    const pacer = new Pacer(options({ rate: 200, burst: 20 }), noSpread, 0);
    expect(pacer.snapshot(0)).toMatchObject({ rate: 200, source: 'configured' });
    // The server counts a window of 10 per 50 ms (stated as 200/s, as configured) and gives
    // nothing back while it is spent over 36 ms.
    for (let i = 0; i < 10; i++) {
      roundTrip(pacer, i * 4, 200, { 'ratelimit-policy': '"w";q=200;w=1', ratelimit: `"w";r=${9 - i};t=1` });
    }
    // The configured bucket would send again in 5 ms; the window holds until the first unit is back
    // (at 50), tested one unit's share of the window (5 ms) and 2 ms of clock slack later.
    expect(pacer.snapshot(36).source).toBe('window');
    expect(pacer.delay(1, 36)).toMatchObject({ ms: 21, window: 'requests:w' });
  });

  it('a window replaces the configured bucket: its quota goes at once, bounded by the rate', () => {
    // Configured 200/s burst 20; the server counts 100 per 500 ms (stated as 200/s).
    const pacer = new Pacer(options({ rate: 200, burst: 20 }), noSpread, 0);
    for (let i = 0; i < 30; i++) {
      roundTrip(pacer, i, 200, { 'ratelimit-policy': '"w";q=200;w=1', ratelimit: `"w";r=${99 - i};t=1` });
    }
    // The configured bucket has spent its 20 and refills one unit per 5 ms; the window has 70 left.
    expect(pacer.snapshot(30)).toMatchObject({ source: 'window', tokens: 70 });
    expect(pacer.delay(70, 30).ms).toBe(0);
    // The same window in `X-RateLimit-*` (no window, no rate stated, the reset in whole seconds):
    // read as 100 / (200 per second) = 500 ms long, it replaces the bucket as well.
    const unstated = new Pacer(options({ rate: 200, burst: 20 }), noSpread, 0);
    for (let i = 0; i < 30; i++) {
      const headers = {
        'x-ratelimit-limit': '100',
        'x-ratelimit-remaining': `${99 - i}`,
        'x-ratelimit-reset': '1',
      };
      roundTrip(unstated, i * 5, 200, headers);
    }
    // (At the configured pace: no refill in 100 ms contradicts the bucket the counts first fit.)
    expect(unstated.snapshot(145)).toMatchObject({ source: 'window', rate: 200, tokens: 70 });
    expect(unstated.delay(70, 145).ms).toBe(0);
  });

  it('a shared quota paces the key: the pacer then only gates and counts', () => {
    const pacer = new Pacer(options({ rate: 1, burst: 1, paced: false, maxInFlight: 2 }), noSpread, 0);
    pacer.grant(1, false, 0, 0);
    expect(pacer.delay(1, 0).ms).toBe(0);
    pacer.grant(1, false, 0, 0);
    expect(pacer.delay(1, 0).ms).toBe(Number.POSITIVE_INFINITY);
  });
});
