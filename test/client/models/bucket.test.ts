import { describe, expect, it } from 'vitest';
import { type BucketModelState, bucketModel, newBucket } from '../../../src/client/models/bucket.js';
import type { Observation } from '../../../src/client/models/model.js';
import { answer, window } from './helpers.js';

const m = bucketModel;

/** Sends `n` single units at `now`, with `inFlight` units already out; returns the state and the last mark. */
function send(s0: BucketModelState, n: number, now: number, firstMark: number, inFlight = 0) {
  let s = s0;
  for (let i = 0; i < n; i++) s = m.sent(s, 1, now, firstMark + i, inFlight + i);
  return s;
}

/** Answers every one of `n` sends at `at` (no counters). */
function answerAll(s0: BucketModelState, n: number, at: number, lastMark: number) {
  let s = s0;
  for (let i = n - 1; i >= 0; i--) s = m.observe(s, answer({ at, mark: lastMark - i, inFlight: i }));
  return s;
}

const read = (
  at: number,
  mark: number,
  fields: Parameters<typeof window>[0],
  extra: Partial<Observation> = {},
) => answer({ at, mark, window: window(fields), ...extra });

describe('bucket model', () => {
  it('configured: keeps one unit of the burst as a cushion, then paces exactly', () => {
    let s = send(newBucket(10, 5, 0), 4, 0, 1);
    // Four in flight, one left and a cushion of one: only an answer can help.
    expect(m.delay(s, 1, 0, 4)).toBe(Number.POSITIVE_INFINITY);
    s = answerAll(s, 4, 0, 4);
    expect(m.delay(s, 1, 0, 0)).toBe(100);
    expect(m.delay(s, 1, 100, 0)).toBe(0);
  });

  it('configured: a server reporting less re-syncs it down, never up', () => {
    let s = send(newBucket(10, 5, 0), 1, 0, 1);
    s = m.observe(s, read(1, 1, { quota: 5, remaining: 0, resetInMs: 1000 }));
    expect(m.snapshot(s, 1, 0).tokens).toBeLessThan(1);
    s = m.observe(s, read(2, 2, { quota: 5, remaining: 5 }));
    expect(m.snapshot(s, 2, 0).tokens).toBeLessThan(1.1);
  });

  it('never counts on more than burst − in flight: a full server cannot bank refill', () => {
    let s = send(newBucket(100, 20, 0), 15, 0, 1);
    // A long time passes with all 15 still in flight: at most 20 − 15 are available.
    expect(m.snapshot(s, 10_000, 15).tokens).toBe(5);
    s = answerAll(s, 15, 10_000, 15);
    expect(m.snapshot(s, 10_000, 0).tokens).toBe(5);
    expect(m.snapshot(s, 10_200, 0).tokens).toBe(20);
  });

  it('learns the refill rate from how remaining moves against what was sent', () => {
    let s = send(newBucket(undefined, undefined, 0), 1, 0, 1);
    s = m.observe(s, read(1, 1, { quota: 20, remaining: 10, resetInMs: 1000 }));
    s = send(s, 22, 50, 2);
    // 22 sent, remaining 10 → 8: the server refilled 20 units in 100 ms.
    s = m.observe(s, read(101, 23, { quota: 20, remaining: 8, resetInMs: 1000 }));
    // The burst is bounded by the stated limit and by the most ever seen left (10 + 1).
    expect(m.snapshot(s, 101, 0)).toMatchObject({ rate: 200, burst: 11, source: 'estimate' });
    expect(m.falsifiedAt(s)).toBeNull();
  });

  it('until an estimate exists, (limit − remaining) / reset is a floor rate', () => {
    let s = send(newBucket(undefined, undefined, 0), 1, 0, 1);
    s = m.observe(s, read(0, 1, { quota: 20, remaining: 15, resetInMs: 1000 }));
    expect(m.snapshot(s, 0, 0)).toMatchObject({ rate: 5, source: 'reset' });
  });

  it('remaining 0 with no measured rate holds it until the reset', () => {
    let s = send(newBucket(undefined, undefined, 0), 1, 0, 1);
    s = m.observe(s, read(0, 1, { quota: 5, remaining: 0, resetInMs: 250 }));
    expect(m.delay(s, 1, 0, 0)).toBe(250);
    expect(m.delay(s, 1, 250, 0)).toBe(0);
  });

  it('a stated rate is the sustained rate at once', () => {
    let s = send(newBucket(undefined, undefined, 0), 1, 0, 1);
    s = m.observe(s, read(0, 1, { quota: 100, windowMs: 60_000, remaining: 40 }, { statedRate: 100 / 60 }));
    expect(m.snapshot(s, 0, 0)).toMatchObject({ rate: 100 / 60, source: 'policy' });
  });

  it('with nothing known and nothing in flight, sends one more only after a short pause', () => {
    let s = send(newBucket(undefined, undefined, 0), 1, 0, 1);
    s = m.observe(s, read(10, 1, { quota: 5, remaining: 1 }));
    // One left and a learning cushion of two: no rate to wait for, so probe 25 ms after the answer.
    expect(m.delay(s, 1, 10, 0)).toBe(25);
    expect(m.delay(s, 1, 35, 0)).toBe(0);
  });

  describe('evidence against a bucket', () => {
    /** A server at 200/s whose readings show `remaining` after each of `n` sends 10 ms apart. */
    function run(remainingAfter: (i: number) => number, inFlight = 0) {
      let s = send(newBucket(undefined, undefined, 0), 1, 0, 1);
      s = m.observe(s, read(0, 1, { quota: 100, remaining: 90 }, { statedRate: 200, inFlight }));
      for (let i = 1; i <= 10; i++) {
        s = send(s, 1, i * 10, i + 1, inFlight);
        s = m.observe(
          s,
          read(i * 10, i + 1, { quota: 100, remaining: remainingAfter(i) }, { statedRate: 200, inFlight }),
        );
      }
      return s;
    }

    it.each([
      ['refills as a bucket at 200/s does (2 per 10 ms, 1 sent)', (i: number) => 90 + i, 0, null],
      ['shows no refill for 100 ms', (i: number) => 90 - i, 0, 10],
      [
        'stays full: a full bucket has no room to refill (a server far below its limit)',
        (i: number) => 98 - (i % 2),
        0,
        null,
      ],
      [
        'shows no refill for 100 ms, but 16 sends in flight could hide 34 units',
        (i: number) => 90 - i,
        16,
        null,
      ],
    ] as const)('a server that %s', (_name, remainingAfter, inFlight, falsifiedAfter) => {
      const at = m.falsifiedAt(run(remainingAfter, inFlight));
      if (falsifiedAfter === null) expect(at).toBeNull();
      else expect(at).toBeGreaterThanOrEqual(falsifiedAfter);
    });

    it('a server far below its limit, with answers out of order, is no evidence: a full bucket cannot refill', () => {
      // 1,000 per ms stated, 1,000 at most: the bucket has 30 units of room, however fast it refills.
      let s = send(newBucket(undefined, undefined, 0), 1, 0, 1);
      s = m.observe(s, read(0, 1, { quota: 1000, remaining: 970 }, { statedRate: 1e6, inFlight: 16 }));
      for (let i = 1; i <= 10; i++) {
        s = send(s, 1, i * 10, i + 1, 16);
        const remaining = 970 - 2 * (i % 3);
        s = m.observe(s, read(i * 10, i + 1, { quota: 1000, remaining }, { statedRate: 1e6, inFlight: 16 }));
      }
      expect(m.falsifiedAt(s)).toBeNull();
    });

    it('a trickle after a burst is judged on its own readings, not on the burst answered with 15 in flight', () => {
      // 98 of a window of 100 answered over 20 ms with up to 15 in flight, then one send every
      // 5 ms: at 200/s two units are owed by the second, and none came.
      let s = newBucket(undefined, undefined, 0);
      for (let i = 0; i < 98; i++) {
        const inFlight = Math.min(15, 97 - i);
        s = send(s, 1, 10 + i / 5, i + 1, inFlight);
        s = m.observe(
          s,
          read(10 + i / 5, i + 1, { quota: 100, remaining: 99 - i }, { statedRate: 200, inFlight }),
        );
      }
      s = m.observe(send(s, 1, 34.4, 99), read(34.4, 99, { quota: 100, remaining: 1 }, { statedRate: 200 }));
      expect(m.falsifiedAt(s)).toBeNull();
      s = m.observe(
        send(s, 1, 39.4, 100),
        read(39.4, 100, { quota: 100, remaining: 0 }, { statedRate: 200 }),
      );
      expect(m.falsifiedAt(s)).toBe(39.4);
    });

    it('the same trickle in tokens is no evidence: costs in tokens are estimates', () => {
      let s = newBucket(undefined, undefined, 0);
      for (let i = 0; i < 98; i++) {
        const inFlight = Math.min(15, 97 - i);
        s = send(s, 1, 10 + i / 5, i + 1, inFlight);
        s = m.observe(
          s,
          read(
            10 + i / 5,
            i + 1,
            { quota: 100, remaining: 99 - i, unit: 'tokens' },
            { statedRate: 200, inFlight },
          ),
        );
      }
      for (const [at, mark, remaining] of [
        [34.4, 99, 1],
        [39.4, 100, 0],
      ] as const)
        s = m.observe(
          send(s, 1, at, mark),
          read(at, mark, { quota: 100, remaining, unit: 'tokens' }, { statedRate: 200 }),
        );
      expect(m.falsifiedAt(s)).toBeNull();
    });

    it('a refusal with counters, despite the cushion, contradicts it', () => {
      let s = send(newBucket(undefined, undefined, 0), 1, 0, 1);
      s = m.observe(s, read(5, 1, { quota: 10, remaining: 0 }, { outcome: 'limited' }));
      expect(m.falsifiedAt(s)).toBe(5);
    });
  });
});
