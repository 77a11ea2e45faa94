import { describe, expect, it } from 'vitest';
import {
  cut,
  type NoCountersModelState,
  newNoCounters,
  noCountersModel,
  recover,
} from '../../../src/client/models/no-counters.js';
import { answer } from './helpers.js';

const m = noCountersModel;

/** `n` successes at `now`. */
function succeed(s0: NoCountersModelState, n: number, now: number) {
  let s = s0;
  for (let i = 0; i < n; i++) s = recover(s, now);
  return s;
}

/** One send at `now`; returns the state and its mark. */
function sendOne(s: NoCountersModelState, now: number) {
  const mark = s.sentMark + 1;
  return { s: m.sent(s, 1, now, mark, 0), mark };
}

describe('no-counters model', () => {
  it('is unpaced until the first refusal', () => {
    const s = succeed(newNoCounters(0), 50, 0);
    expect(m.delay(s, 1, 0, 0)).toBe(0);
    expect(m.snapshot(s, 0, 0)).toMatchObject({ rate: null, source: null });
  });

  it('one cut per episode, slow start from the gate, then halving', () => {
    let s = succeed(newNoCounters(0), 20, 0);
    const marks: number[] = [];
    for (let i = 0; i < 4; i++) {
      const sent = sendOne(s, 0);
      s = sent.s;
      marks.push(sent.mark);
    }
    for (const mark of marks) s = cut(s, mark, 1000, 5);
    // 20 got through before the first refusal, Retry-After 1 s: start at 40/s, cut once only.
    expect(m.snapshot(s, 5, 0)).toMatchObject({ rate: 40, source: 'aimd' });
    // The key is gated until 1005: no growth before, one step as it opens.
    s = recover(s, 300);
    expect(m.snapshot(s, 300, 0).rate).toBe(40);
    s = recover(s, 1005);
    expect(m.snapshot(s, 1005, 0).rate).toBe(60);
    // One send since the gate opened: nothing measured, so halve.
    const refused = sendOne(s, 1005);
    s = cut(refused.s, refused.mark, 1000, 1006);
    expect(m.snapshot(s, 1006, 0).rate).toBe(30);
    // Clean time counts from 2006; it adds back (0.95 × 60 − 30) / 4 per second.
    s = recover(s, 2006);
    expect(m.snapshot(s, 2006, 0).rate).toBe(30);
    s = recover(s, 3006);
    expect(m.snapshot(s, 3006, 0).rate).toBeCloseTo(36.75, 10);
  });

  it('a refusal after slow start cuts to the rate the server admitted, then grows gently', () => {
    let s = succeed(newNoCounters(0), 20, 0);
    const first = sendOne(s, 0);
    s = cut(first.s, first.mark, 1000, 5);
    // The gate opens at 1005; slow start: 60, 90, 135, 202.5, 303.75 every 250 ms.
    // 200 sends at 5 ms intervals get through, then the one at 2005 is refused.
    for (let i = 0; i < 200; i++) {
      const now = 1005 + i * 5;
      s = sendOne(recover(s, now), now).s;
    }
    s = recover(s, 2005);
    expect(m.snapshot(s, 2005, 0).rate).toBeCloseTo(303.75, 10);
    const refused = sendOne(s, 2005);
    s = cut(refused.s, refused.mark, 1000, 2006);
    // At most 20 (what got through before the first refusal) came from the server's bucket:
    // the other 180 of the 200 sent in the last second were refill, so the rate is ≥ 180/s
    // (halving would give 151.875).
    expect(m.snapshot(s, 2006, 0).rate).toBeCloseTo(180, 10);
    // Growth is gentle: (0.95 × 303.75 − 180) / 4 per second of clean time after the gate.
    s = recover(recover(s, 3006), 4006);
    expect(m.snapshot(s, 4006, 0).rate).toBeCloseTo(180 + (0.95 * 303.75 - 180) / 4, 10);
  });

  it('the admitted-rate bound never lifts the rate above 95 % of the refused one', () => {
    let s = recover(newNoCounters(0), 0);
    const first = sendOne(s, 0);
    s = cut(first.s, first.mark, 1000, 0);
    // Rate 2/s from 1 success (no growth yet); 100 sends in 100 ms got through anyway (not a token bucket).
    for (let i = 0; i < 100; i++) s = sendOne(s, 1000 + i).s;
    const refused = sendOne(s, 1100);
    s = cut(refused.s, refused.mark, 1000, 1100);
    expect(m.snapshot(s, 1100, 0).rate).toBeCloseTo(0.95 * 2, 10);
  });

  it('observe: a refusal cuts, an answer recovers, a failed attempt only releases', () => {
    const at = (outcome: 'answered' | 'limited' | 'failed') =>
      answer({ at: 5, mark: 1, outcome, retryAfterMs: 1000 });
    let s = m.sent(succeed(newNoCounters(0), 10, 0), 1, 0, 1, 0);
    expect(m.observe(s, at('failed')).rate).toBeNull();
    s = m.observe(s, at('limited'));
    expect(s.rate).toBe(20);
    expect(m.observe(s, at('answered')).episodeSuccesses).toBe(1);
  });
});
