import { describe, expect, it } from 'vitest';
import {
  bucketAndWindowMinimumMs,
  bucketMinimumMs,
  epochResetNoProbeFloorMs,
  fixedWindowMinimumMs,
  slidingLogMinimumMs,
  slidingWindowCounterMinimumMs,
} from '../../bench/lib/server-kinds.js';
import type { Policy } from '../../src/server/index.js';
import {
  type AlgorithmName,
  type AlgorithmState,
  algorithms,
  resolvePolicy,
} from '../../src/server/index.js';

/**
 * The ideal client of S6's minima, on a manual time axis: send the next call the instant every
 * policy admits it (jumping by the longest `retryAfterMs` otherwise, then 1 ms at a time), no
 * latency. Returns the time of the N-th admission, from the first request.
 */
function greedyMs(n: number, policies: { algorithm: AlgorithmName; policy: Policy }[], startMs = 0): number {
  const limits = policies.map((p) => resolvePolicy(p.policy, p.algorithm).limit);
  const states: AlgorithmState[] = limits.map(() => undefined);
  let now = startMs;
  for (let sent = 0; sent < n; ) {
    const takes = limits.map((l, i) => algorithms[l.algorithm].take(states[i], l, now, 1));
    if (takes.every((t) => t.decision.allowed)) {
      takes.forEach((t, i) => {
        states[i] = t.state;
      });
      sent++;
      continue;
    }
    const wait = Math.max(...takes.filter((t) => !t.decision.allowed).map((t) => t.decision.retryAfterMs));
    now += Math.max(1, Math.floor(wait));
  }
  return now - startMs;
}

describe('S6 minima match a greedy client against the real algorithms', () => {
  it.each([100, 1000, 1013])('token bucket and GCRA, %i calls', (n) => {
    const bucket = { rate: 200, burst: 20 };
    for (const algorithm of ['token-bucket', 'gcra'] as const)
      expect(greedyMs(n, [{ algorithm, policy: bucket }])).toBeCloseTo(bucketMinimumMs(n, bucket), -1);
  });

  it.each([
    [1000, 0],
    [1000, 137],
    [950, 499],
    [60, 10],
  ])('fixed window, %i calls, first request %i ms into its window', (n, phase) => {
    const w = { limit: 100, windowMs: 500 };
    expect(greedyMs(n, [{ algorithm: 'fixed-window', policy: w }], 5000 + phase)).toBe(
      fixedWindowMinimumMs(n, w, phase),
    );
  });

  it.each([1000, 250, 101])('sliding log, %i calls', (n) => {
    const w = { limit: 100, windowMs: 500 };
    expect(greedyMs(n, [{ algorithm: 'sliding-log', policy: w }], 5137)).toBe(slidingLogMinimumMs(n, w));
  });

  it.each([
    [1000, 0],
    [1000, 200],
    [150, 0],
    [199, 50],
    [120, 0],
  ])('sliding window counter, %i calls, first request %i ms into its window', (n, phase) => {
    const w = { limit: 100, windowMs: 500 };
    // whole-ms steps of the simulation: within a few ms of the formula
    const simulated = greedyMs(n, [{ algorithm: 'sliding-window-counter', policy: w }], 5000 + phase);
    expect(Math.abs(simulated - slidingWindowCounterMinimumMs(n, w, phase))).toBeLessThanOrEqual(2);
  });

  it.each([350, 200, 600])('a bucket and a longer window, %i calls', (n) => {
    const bucket = { rate: 100, burst: 20 };
    const long = { limit: 250, windowMs: 5000 };
    const simulated = greedyMs(n, [
      { algorithm: 'token-bucket', policy: bucket },
      { algorithm: 'fixed-window', policy: long },
    ]);
    expect(Math.abs(simulated - bucketAndWindowMinimumMs(n, bucket, long))).toBeLessThanOrEqual(1);
  });
});

/**
 * A client that never sends before a stated reset, against the real fixed window whose reset is
 * stated as the epoch second after the window's end (`headway serve --headers x-ratelimit`): it
 * spends what is left at once, then waits for the reset the last admission stated. Returns the
 * time of the N-th admission, from the first request.
 */
function noProbeMs(n: number, windowMs: number, startMs: number, wallOffsetMs: number): number {
  const limit = resolvePolicy({ limit: 100, windowMs }, 'fixed-window').limit;
  let state: AlgorithmState;
  let now = startMs;
  let last = startMs;
  let resetAt = startMs;
  for (let sent = 0; sent < n; ) {
    const take = algorithms['fixed-window'].take(state, limit, now, 1);
    if (take.decision.allowed) {
      state = take.state;
      sent++;
      last = now;
      resetAt = Math.ceil((now + take.decision.resetMs + wallOffsetMs) / 1000) * 1000 - wallOffsetMs;
    } else now = resetAt;
  }
  return last - startMs;
}

describe('the no-probe floor of a window whose reset is stated in whole epoch seconds', () => {
  it.each([
    [500, 0],
    [500, 300],
    [500, 700],
    [1000, 0],
    [1000, 250],
    [1000, 999],
  ])('fixed window of 100 per %i ms, epoch − monotonic = %i ms (mod 1 s)', (windowMs, offset) => {
    // The first request 1 ms into a window, as S6 starts such runs.
    const start = 20 * windowMs + 1;
    expect(noProbeMs(1000, windowMs, start, offset)).toBe(
      epochResetNoProbeFloorMs(1000, { limit: 100, windowMs }, start, offset),
    );
  });
});
