import { describe, expect, it } from 'vitest';
import {
  type ConcurrencyModelState,
  concurrencyModel,
  newConcurrency,
  PROBE_AFTER_MS,
} from '../../../src/client/models/concurrency.js';
import type { Observation } from '../../../src/client/models/model.js';
import { answer, window } from './helpers.js';

const m = concurrencyModel;

/** A refusal answered at `at` while `inFlight` other calls were still in flight. */
const refusal = (at: number, inFlight: number, fields: Partial<Observation> = {}): Observation =>
  answer({ at, mark: 1, inFlight, outcome: 'limited', retryAfterMs: 1000, ...fields });

const apply = (s0: ConcurrencyModelState, observations: Observation[]) =>
  observations.reduce((s, o) => m.observe(s, o), s0);

/** The most calls `delay` lets go at once. */
function allowed(s: ConcurrencyModelState): number {
  let n = 0;
  while (n < 1000 && m.delay(s, 1, 0, n) === 0) n++;
  return n;
}

describe('concurrency model', () => {
  it('caps nothing until a refusal says so', () => {
    const s = apply(newConcurrency(), [answer({ at: 0, mark: 1, inFlight: 40 })]);
    expect(s.cap).toBeNull();
    expect(allowed(s)).toBe(1000);
    expect(m.snapshot(s, 0, 3)).toEqual({ rate: null, burst: null, source: null, tokens: null });
  });

  it.each([
    // others in flight at each refusal → the learned cap
    {
      case: 'a burst of refusals: the last, with fewest in flight, sets the cap',
      refusals: [15, 12, 9, 8],
      cap: 8,
    },
    { case: 'a refusal with more in flight than the cap leaves it', refusals: [5, 9], cap: 5 },
    { case: 'a refusal alone in flight says nothing about concurrency', refusals: [0], cap: null },
    { case: 'one other in flight: the server admits one', refusals: [1], cap: 1 },
  ])('$case', ({ refusals, cap }) => {
    const s = apply(
      newConcurrency(),
      refusals.map((n, i) => refusal(i, n)),
    );
    expect(s.cap).toBe(cap);
  });

  it('a refusal that an exhausted window explains is the rate, not concurrency', () => {
    const exhausted = window({ quota: 100, remaining: 0, resetInMs: 3000 });
    const s = apply(newConcurrency(), [refusal(0, 10, { window: exhausted })]);
    expect(s.cap).toBeNull();
    const open = window({ quota: 100, remaining: 40, resetInMs: 3000 });
    expect(apply(newConcurrency(), [refusal(0, 10, { window: open })]).cap).toBe(10);
  });

  it('after a retry hint, reopens one call at first and one more per answer, up to the cap', () => {
    let s = apply(newConcurrency(), [refusal(0, 12), refusal(1, 8)]);
    // Gate closed meanwhile (the pacer's); once open: 1 may go, then each answer adds one.
    const steps: number[] = [allowed(s)];
    for (let i = 0; i < 8; i++) {
      s = m.observe(s, answer({ at: 1000 + i, mark: 2 + i, inFlight: 0 }));
      steps.push(allowed(s));
    }
    expect(steps).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 8]);
    expect(s.ramp).toBeNull();
  });

  it('answers to calls sent before the refusal do not widen the reopening', () => {
    let s = apply(newConcurrency(), [refusal(10, 8)]);
    for (let i = 0; i < 8; i++) s = m.observe(s, answer({ at: 20, sentAt: 5, mark: 1, inFlight: 7 - i }));
    expect(allowed(s)).toBe(1);
  });

  it('reopening without a cap ends at the calls in flight when the refusal came', () => {
    // A per-second limit refused with 0 others in flight (no cap learned), 1 in flight before.
    let s = apply(newConcurrency(), [refusal(0, 0, { inFlightBefore: 4 })]);
    expect(s.cap).toBeNull();
    expect(allowed(s)).toBe(1);
    for (let i = 0; i < 3; i++) s = m.observe(s, answer({ at: 1000 + i, mark: 2 + i }));
    expect(s.ramp).toBeNull();
    expect(allowed(s)).toBe(1000);
  });

  it('a refusal without a retry hint caps but does not restart the reopening', () => {
    const s = apply(newConcurrency(), [refusal(0, 6, { retryAfterMs: null })]);
    expect(s.cap).toBe(6);
    expect(s.ramp).toBeNull();
    expect(allowed(s)).toBe(6);
  });

  it('probes upward by one only after quiet time and a cap of answers in full use', () => {
    let s = apply(newConcurrency(), [refusal(0, 4, { retryAfterMs: null })]);
    /** `n` answers at `at` with the cap in full use (`full`) or not. */
    const answers = (at: number, n: number, full: boolean) => {
      for (let i = 0; i < n; i++)
        s = m.observe(s, answer({ at, mark: 1, inFlight: full ? (s.cap ?? 1) - 1 : 0 }));
    };
    const table: [at: number, n: number, full: boolean, cap: number][] = [
      [1000, 50, true, 4], // in full use, but not quiet for long enough yet
      [PROBE_AFTER_MS - 1, 1, true, 4],
      [PROBE_AFTER_MS + 10, 100, false, 4], // quiet, but the cap was not in full use
      [PROBE_AFTER_MS + 20, 1, true, 5], // quiet and in full use: the probe, one more
      [PROBE_AFTER_MS + 40, 10, true, 5], // the probe restarted the quiet time
      [2 * PROBE_AFTER_MS + 20, 1, true, 6],
    ];
    const caps = table.map(([at, n, full]) => {
      answers(at, n, full);
      return s.cap;
    });
    expect(caps).toEqual(table.map((row) => row[3]));
    // A refusal at the probed cap brings it back to what was admitted.
    s = m.observe(s, refusal(2 * PROBE_AFTER_MS + 50, 5, { retryAfterMs: null }));
    expect(s.cap).toBe(5);
  });

  it('a failed attempt (no answer) changes nothing', () => {
    const s0 = apply(newConcurrency(), [refusal(0, 3)]);
    expect(m.observe(s0, answer({ at: 5, mark: 2, inFlight: 2, outcome: 'failed' }))).toBe(s0);
  });

  it('snapshot: the allowance now and the places free; nothing is ever ruled out', () => {
    const s = apply(newConcurrency(), [refusal(0, 5, { retryAfterMs: null })]);
    expect(m.snapshot(s, 0, 2)).toEqual({ rate: null, burst: 5, source: null, tokens: 3 });
    expect(m.falsifiedAt(s)).toBeNull();
    expect(m.sent(s, 1, 0, 1, 0)).toBe(s);
  });
});
