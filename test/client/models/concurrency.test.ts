import { describe, expect, it } from 'vitest';
import {
  type ConcurrencyModelState,
  concurrencyModel,
  newConcurrency,
  PERIOD_SLACK,
  PROBE_AFTER_MS,
} from '../../../src/client/models/concurrency.js';
import type { Observation } from '../../../src/client/models/model.js';
import { answer, window } from './helpers.js';

const m = concurrencyModel;

/** The window a server with counters reports by default: room left (GitHub's primary window). */
const COUNTED = window({ quota: 1000, remaining: 500, resetInMs: 60_000 });

/** A key's calls, as the pacer reports them to the model: sent in mark order, then settled. */
class Calls {
  s: ConcurrencyModelState = newConcurrency();
  #mark = 0;
  /** Calls in flight: mark → when sent. */
  #inFlight = new Map<number, number>();

  /** Sends `n` calls at `at`; returns their marks. */
  send(n: number, at = 0): number[] {
    return Array.from({ length: n }, () => {
      const mark = ++this.#mark;
      this.s = m.sent(this.s, 1, at, mark, this.#inFlight.size);
      this.#inFlight.set(mark, at);
      return mark;
    });
  }

  /** Settles the call `mark` at `at`: admitted, refused (with a 1 s hint unless said) or failed. */
  settle(mark: number, at: number, outcome: Observation['outcome'], fields: Partial<Observation> = {}) {
    const sentAt = this.#inFlight.get(mark) ?? at;
    this.#inFlight.delete(mark);
    const limited = outcome === 'limited';
    this.s = m.observe(
      this.s,
      answer({
        at,
        sentAt,
        mark,
        inFlight: this.#inFlight.size,
        outcome,
        retryAfterMs: limited ? 1000 : null,
        window: COUNTED,
        ...fields,
      }),
    );
  }

  /** Sends `admitted + refused` calls at once; the server admits the first `admitted`, refuses the rest at once. */
  burst(admitted: number, refused: number, at: number, fields: Partial<Observation> = {}) {
    const marks = this.send(admitted + refused, at);
    for (const mark of marks.slice(admitted)) this.settle(mark, at + 1, 'limited', fields);
    for (const mark of marks.slice(0, admitted)) this.settle(mark, at + 50, 'answered');
  }

  get inFlight(): number {
    return this.#inFlight.size;
  }
}

/** The most calls `delay` lets go at once. */
function allowed(s: ConcurrencyModelState): number {
  let n = 0;
  while (n < 1000 && m.delay(s, 1, 0, n) === 0) n++;
  return n;
}

/** 40 calls one every 10 ms, each admitted 5 ms later, then one refused at 400 ms with `fields`. */
function steadyThenRefused(fields: Partial<Observation>) {
  const calls = new Calls();
  for (let i = 0; i < 40; i++) {
    const [mark] = calls.send(1, i * 10);
    calls.settle(mark!, i * 10 + 5, 'answered');
  }
  const [refused] = calls.send(1, 400);
  calls.settle(refused!, 401, 'limited', fields);
  return calls;
}

describe('concurrency model, calls per period', () => {
  const room = { window: window({ quota: 100, remaining: 50, resetInMs: 3000 }), retryAfterMs: 1000 };

  it('a refusal with room left in the window, after more were admitted within the hint than in flight: that many per period, less one', () => {
    const calls = steadyThenRefused(room);
    expect(calls.s.periods).toEqual([{ perPeriod: 39, periodMs: 1000, at: 401 }]);
    expect(calls.s.cap).toBeNull();
  });

  it.each([
    // now (ms), delay (ms): 40 sent from 0 to 390 ms; one more may go once two left the period (+ slack)
    [401, 10 + 1000 * (1 + PERIOD_SLACK) - 401],
    [1000, 10 + 1000 * (1 + PERIOD_SLACK) - 1000],
    [1061, 0],
  ])('paced as a sliding log of sends: at %s ms, %s ms to wait', (now, ms) => {
    const calls = steadyThenRefused(room);
    expect(m.delay(calls.s, 1, now, 0)).toBeCloseTo(ms, 9);
  });

  it('grows by one after 30 s without such a refusal', () => {
    const calls = steadyThenRefused(room);
    const [late] = calls.send(1, 401 + PROBE_AFTER_MS);
    calls.settle(late!, 402 + PROBE_AFTER_MS, 'answered');
    expect(calls.s.periods[0]?.perPeriod).toBe(40);
  });

  it.each([
    {
      case: 'an exhausted window explains it',
      fields: { ...room, window: window({ quota: 100, remaining: 0 }) },
    },
    {
      case: 'no counters (the rate is the no-counters model’s to learn)',
      fields: { retryAfterMs: 1000, window: null },
    },
    { case: 'no retry hint', fields: { ...room, retryAfterMs: null } },
  ])('no per-period limit when $case', ({ fields }) => {
    expect(steadyThenRefused(fields).s.periods).toEqual([]);
  });

  it('no per-period limit from a refusal the cap explains (no more admitted than in flight)', () => {
    const calls = new Calls();
    calls.burst(8, 8, 0, room);
    expect(calls.s.cap).toBe(8);
    expect(calls.s.periods).toEqual([]);
  });
});

describe('concurrency model', () => {
  it('caps nothing while the server admits everything', () => {
    const calls = new Calls();
    calls.burst(40, 0, 0);
    expect(calls.s.cap).toBeNull();
    expect(allowed(calls.s)).toBe(1000);
    expect(m.snapshot(calls.s, 0, 3)).toEqual({ rate: null, burst: null, source: null, tokens: null });
  });

  it.each([
    { case: '16 at once, 8 admitted: the cap is what was admitted', admitted: 8, refused: 8, cap: 8 },
    { case: 'one admitted, one refused', admitted: 1, refused: 1, cap: 1 },
    { case: 'a refusal alone in flight says nothing about concurrency', admitted: 0, refused: 1, cap: null },
    {
      case: 'refused before any other: the others sent after it do not count',
      admitted: 0,
      refused: 5,
      cap: null,
    },
  ])('$case', ({ admitted, refused, cap }) => {
    const calls = new Calls();
    calls.burst(admitted, refused, 0);
    expect(calls.s.cap).toBe(cap);
  });

  it('a server that states no counters teaches no cap: its refusals are the no-counters model’s rate', () => {
    const calls = new Calls();
    calls.burst(8, 8, 0, { window: null });
    expect(calls.s.cap).toBeNull();
  });

  it('a refusal that an exhausted window explains is the rate, not concurrency', () => {
    const exhausted = new Calls();
    exhausted.burst(10, 1, 0, { window: window({ quota: 100, remaining: 0, resetInMs: 3000 }) });
    expect(exhausted.s.cap).toBeNull();
    const open = new Calls();
    open.burst(10, 1, 0, { window: window({ quota: 100, remaining: 40, resetInMs: 3000 }) });
    expect(open.s.cap).toBe(10);
  });

  it('a refusal of a call sent while reopening is the rate (per second), not concurrency', () => {
    const calls = new Calls();
    calls.burst(8, 0, 0);
    const first = calls.send(3, 100);
    calls.settle(first[2]!, 101, 'limited'); // 2 sent before it in flight: cap 2, reopening from 1
    expect(calls.s.cap).toBe(2);
    for (const mark of first.slice(0, 2)) calls.settle(mark, 150, 'answered');
    const [reopened] = calls.send(1, 1200);
    const [second] = calls.send(1, 1201);
    calls.settle(second!, 1202, 'limited'); // sent while reopening: says nothing about the cap
    expect(calls.s.cap).toBe(2);
    calls.settle(reopened!, 1250, 'answered');
  });

  it('after a round at the cap, one refusal below it is doubted (a per-second limit); a second is believed', () => {
    const calls = new Calls();
    calls.burst(4, 4, 0, { retryAfterMs: null });
    // Steady use at the cap: each answer comes with the other 3 in flight, and a call replaces it.
    let marks = calls.send(4, 100);
    for (let i = 0; i < 4; i++) {
      calls.settle(marks[0]!, 110 + i, 'answered');
      marks = [...marks.slice(1), ...calls.send(1, 110 + i)];
    }
    for (const mark of marks) calls.settle(mark, 150, 'answered');
    const refuseBelowCap = (at: number) => {
      const marks = calls.send(4, at);
      calls.settle(marks[3]!, at + 1, 'limited', { retryAfterMs: null }); // 3 sent before it in flight
      for (const mark of marks.slice(0, 3)) calls.settle(mark, at + 5, 'answered');
    };
    refuseBelowCap(200);
    expect(calls.s.cap).toBe(4);
    // Calls sent before the doubted refusal came are of the same episode: doubted too.
    const episode = calls.send(3, 200);
    calls.settle(episode[2]!, 202, 'limited', { retryAfterMs: null });
    for (const mark of episode.slice(0, 2)) calls.settle(mark, 205, 'answered');
    expect(calls.s.cap).toBe(4);
    refuseBelowCap(300); // no full round since the doubted one: believed
    expect(calls.s.cap).toBe(3);
  });

  it('a later refusal with fewer in flight lowers the cap; one with more leaves it', () => {
    const calls = new Calls();
    calls.burst(5, 3, 0);
    expect(calls.s.cap).toBe(5);
    calls.burst(6, 1, 2000); // more in flight than the cap (a caller over the cap): no new evidence
    expect(calls.s.cap).toBe(5);
  });

  it('counts the calls admitted beside a refused one and answered while its refusal came back, not those refused beside it or sent after it', () => {
    const calls = new Calls();
    calls.send(8, 0); // marks 1–8, all admitted: 1–7 answered at 100, 8 still running
    const [first, second] = calls.send(2, 95); // both refused (20 ms to refuse)
    const [after] = calls.send(1, 96); // sent after them: not at the server when they arrived
    for (let mark = 1; mark <= 7; mark++) calls.settle(mark, 100, 'answered');
    calls.settle(after!, 105, 'answered');
    calls.settle(first!, 115, 'limited');
    calls.settle(second!, 115, 'limited');
    expect(calls.s.cap).toBe(8);
  });

  it('after a retry hint, reopens one call at first and one more per answer, up to the cap', () => {
    const calls = new Calls();
    calls.burst(8, 8, 0);
    // The gate is closed meanwhile (the pacer's); once it opens, 1 may go, then each answer adds one.
    const steps: number[] = [];
    for (let round = 0, at = 1000; round < 5; round++, at += 10) {
      const n = allowed(calls.s) - calls.inFlight;
      steps.push(n);
      for (const mark of calls.send(n, at)) calls.settle(mark, at + 5, 'answered');
    }
    expect(steps).toEqual([1, 2, 4, 8, 8]);
    expect(calls.s.ramp).toBeNull();
  });

  it('answers to calls sent before the refusal do not widen the reopening', () => {
    const calls = new Calls();
    const marks = calls.send(9, 0);
    calls.settle(marks[8]!, 1, 'limited');
    for (const mark of marks.slice(0, 8)) calls.settle(mark, 50, 'answered');
    expect(allowed(calls.s)).toBe(1);
  });

  it('reopening without a cap ends at the calls in flight when the refusal came', () => {
    const calls = new Calls();
    calls.burst(8, 0, 0);
    const marks = calls.send(4, 100);
    // A rate refusal (sent first; no counters, so no per-period limit either): no cap, 4 were in flight.
    calls.settle(marks[0]!, 101, 'limited', { window: null });
    for (const mark of marks.slice(1)) calls.settle(mark, 150, 'answered');
    expect(calls.s.cap).toBeNull();
    expect(allowed(calls.s)).toBe(1);
    for (const at of [1000, 1010, 1020])
      for (const mark of calls.send(1, at)) calls.settle(mark, at + 5, 'answered');
    expect(calls.s.ramp).toBeNull();
    expect(allowed(calls.s)).toBe(1000);
  });

  it('a refusal without a retry hint caps but does not restart the reopening', () => {
    const calls = new Calls();
    calls.burst(6, 2, 0, { retryAfterMs: null });
    expect(calls.s.cap).toBe(6);
    expect(calls.s.ramp).toBeNull();
    expect(allowed(calls.s)).toBe(6);
  });

  it('probes upward by one only after quiet time and a cap of answers in full use', () => {
    const calls = new Calls();
    calls.burst(4, 1, 0, { retryAfterMs: null });
    /** `n` rounds at `at` with the cap in full use (`full`) or one call at a time. */
    const rounds = (at: number, n: number, full: boolean) => {
      for (let i = 0; i < n; i++) {
        const marks = calls.send(full ? (calls.s.cap ?? 1) : 1, at);
        for (const mark of marks) calls.settle(mark, at, 'answered');
      }
    };
    const table: [at: number, rounds: number, full: boolean, cap: number][] = [
      [1000, 20, true, 4], // in full use, but not quiet for long enough yet
      [PROBE_AFTER_MS - 1, 1, true, 4],
      [PROBE_AFTER_MS + 10, 100, false, 4], // quiet, but the cap was not in full use
      [PROBE_AFTER_MS + 20, 1, true, 5], // quiet and in full use: the probe, one more
      [PROBE_AFTER_MS + 40, 10, true, 5], // the probe restarted the quiet time
      [2 * PROBE_AFTER_MS + 20, 1, true, 6],
    ];
    const caps = table.map(([at, n, full]) => {
      rounds(at, n, full);
      return calls.s.cap;
    });
    expect(caps).toEqual(table.map((row) => row[3]));
    // A refusal at the probed cap brings it back to what was admitted.
    calls.burst(5, 1, 2 * PROBE_AFTER_MS + 50, { retryAfterMs: null });
    expect(calls.s.cap).toBe(5);
  });

  it('a failed attempt (no answer) teaches nothing', () => {
    const calls = new Calls();
    const [a, b] = calls.send(2, 0);
    calls.settle(b!, 5, 'failed');
    calls.settle(a!, 6, 'answered');
    expect(calls.s).toMatchObject({ cap: null, ramp: null });
    expect(calls.s.pending.size).toBe(0);
  });

  it('snapshot: the allowance now and the places free; nothing is ever ruled out', () => {
    const calls = new Calls();
    calls.burst(5, 1, 0, { retryAfterMs: null });
    expect(m.snapshot(calls.s, 0, 2)).toEqual({ rate: null, burst: 5, source: null, tokens: 3 });
    expect(m.falsifiedAt(calls.s)).toBeNull();
  });
});

describe('the log of admitted sends', () => {
  it('stays bounded for a busy key: 20,000 answers within one period keep at most 4,096 in view and 8,192 stored', () => {
    const calls = new Calls();
    let most = 0;
    for (let i = 0; i < 20_000; i++) {
      const [mark] = calls.send(1, i);
      calls.settle(mark!, i + 1, 'answered');
      most = Math.max(most, calls.s.admitted.length);
    }
    expect([calls.s.admittedMarks.length, calls.s.answeredAt.length]).toEqual([
      calls.s.admitted.length,
      calls.s.admitted.length,
    ]);
    expect(calls.s.admitted.length - calls.s.admittedFrom).toBeLessThanOrEqual(4096);
    expect(most).toBeLessThanOrEqual(8192);
  });

  it('drops sends older than the longest period from its view', () => {
    const calls = new Calls();
    for (let i = 0; i < 10; i++) {
      const [mark] = calls.send(1, i * 1000);
      calls.settle(mark!, i * 1000 + 1, 'answered');
    }
    const [late] = calls.send(1, 200_000);
    calls.settle(late!, 200_001, 'answered');
    expect(calls.s.admitted.length - calls.s.admittedFrom).toBe(1);
  });
});
