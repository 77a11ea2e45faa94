/**
 * The server kinds of S6, each with its theoretical minimum written next to its definition: the
 * wall time of an ideal client that knows the limit, sends each call the instant the server would
 * admit it and has no latency. Every formula below is also checked against a greedy simulation of
 * the real algorithm in `test/bench/server-kinds.test.ts`.
 *
 * Notation: N calls; a bucket of `rate` per second and `burst`; a window of L requests per W ms.
 * φ = how far into its window the first request lands, for windows aligned to the server's clock
 * (`headway serve`: windows start at multiples of W of its monotonic clock). S6 starts such runs at
 * a window boundary (φ ≈ 1 ms), and takes φ of each run from the time it really started.
 */
import type { AlgorithmName, HeaderDialect } from 'headway/server';
import { startServer } from 'headway/server';
import type { BenchServer } from './http-run.js';
import { startExpressRateLimit, startFastifyRateLimit, type WindowLimit } from './peer-servers.js';
import { startCountingProxy } from './proxy-server.js';
import { startMultiPolicyServer } from './two-window-server.js';

/** A bucket limit: `rate` per second, at most `burst` at once. */
export interface BucketLimit {
  rate: number;
  burst: number;
}

/**
 * Token bucket and GCRA (full at the start): the burst passes at once, the rest at the rate.
 * min = (N − burst) / rate.
 */
export function bucketMinimumMs(n: number, { rate, burst }: BucketLimit): number {
  return (Math.max(0, n - burst) / rate) * 1000;
}

/**
 * Fixed window (and a window that starts at the first request: φ = 0): L pass in each window, so
 * the last of ⌈N/L⌉ windows opens (⌈N/L⌉ − 1) windows after the first, which began φ before the
 * first request. min = (⌈N/L⌉ − 1)·W − φ.
 */
export function fixedWindowMinimumMs(n: number, { limit, windowMs }: WindowLimit, phaseMs = 0): number {
  return Math.max(0, (Math.ceil(n / limit) - 1) * windowMs - phaseMs);
}

/**
 * Sliding log: L may pass at once, and each admitted request frees its place W later, so batch k
 * of L passes at k·W whatever the phase. min = (⌈N/L⌉ − 1)·W.
 */
export function slidingLogMinimumMs(n: number, limit: WindowLimit): number {
  return fixedWindowMinimumMs(n, limit, 0);
}

/**
 * Sliding window counter (aligned windows; estimate = previous·(1 − e/W) + current, e = time into
 * the window). Fresh, L pass at once in the first window. In the second (previous = L) the j-th
 * request needs e ≥ j·W/L, so L − 1 pass (the L-th would need e = W); from the third on
 * (previous = L − 1) the j-th needs e ≥ (j − 1)·W/(L − 1), again L − 1 per window. Sending earlier
 * never lets more through later (a window holds at most L − 1 after a non-empty one), so this
 * greedy schedule is the fastest. With M = N − L calls after the first window:
 * - M ≤ 0: 0;  M ≤ L − 1: (W − φ) + M·W/L;
 * - else M′ = M − (L − 1), q = ⌈M′/(L − 1)⌉, r = M′ − (q − 1)(L − 1):
 *   min = (W − φ) + q·W + (r − 1)·W/(L − 1).
 * About (N/(L − 1))·W for large N: the steady rate is (L − 1) per window, not L.
 */
export function slidingWindowCounterMinimumMs(
  n: number,
  { limit, windowMs }: WindowLimit,
  phaseMs = 0,
): number {
  const m = n - limit;
  if (m <= 0) return 0;
  const first = windowMs - phaseMs;
  if (m <= limit - 1) return first + (m * windowMs) / limit;
  const rest = m - (limit - 1);
  const q = Math.ceil(rest / (limit - 1));
  const r = rest - (q - 1) * (limit - 1);
  return first + q * windowMs + ((r - 1) * windowMs) / (limit - 1);
}

/**
 * A bucket and a longer fixed window that starts at the first request, both on every request. When
 * the bucket refills fully while the window is spent (L/rate ≤ W), each window's L go out as fast as
 * the bucket lets them, and the bucket is full when the next window opens; so with K = ⌈N/L⌉
 * windows and m = N − (K − 1)·L calls in the last: min = (K − 1)·W + max(0, m − burst)/rate.
 */
export function bucketAndWindowMinimumMs(n: number, bucket: BucketLimit, window: WindowLimit): number {
  if (window.limit / bucket.rate > window.windowMs / 1000)
    throw new Error('bucketAndWindowMinimumMs: the bucket must refill within the window (L/rate ≤ W)');
  const k = Math.ceil(n / window.limit);
  return (k - 1) * window.windowMs + bucketMinimumMs(n - (k - 1) * window.limit, bucket);
}

/** What a user who reads a window's stated limit as a bucket configures: rate L/W, burst L/5. */
export function bucketReading({ limit, windowMs }: WindowLimit): BucketLimit {
  return { rate: (limit * 1000) / windowMs, burst: Math.max(1, Math.round(limit / 5)) };
}

/** Which target rows a kind belongs to. */
export type KindGroup = 'headway' | 'third-party' | 'two-windows' | 'retry-after-only';

/** One server kind of S6: how to start it, how many calls, and its minimum. */
export interface ServerKind {
  /** Unique, e.g. `fixed-window/ietf`. */
  id: string;
  /** Shown in tables, e.g. `headway fixed-window 100/500 ms`. */
  label: string;
  /** Header form the server writes, as shown in tables. */
  headers: string;
  group: KindGroup;
  /** A window (not a bucket) server: a client configured as a bucket is measured against it. */
  window: boolean;
  n: number;
  workers: number;
  /** What a configured client is told (a bucket server's own limit, or the bucket reading of a window). */
  known: BucketLimit;
  /** 429s the target allows: one window's limit, or the burst. */
  maxRefused: number;
  /** Windows aligned to the server's clock: start at a boundary of this period, φ = start mod it. */
  alignMs: number | undefined;
  /** The minimum's formula with this kind's numbers, for RESULTS.md. */
  formula: string;
  /** The minimum, for a run whose first request lands `phaseMs` into its window. */
  minimumMs(phaseMs: number): number;
  /**
   * Windows that state their reset only as a whole epoch second: the wall time of the fastest
   * client that never sends before a stated reset, for a run started at `startedAt` (monotonic ms)
   * with `wallOffsetMs` = epoch − monotonic (README, Limits).
   */
  noProbeFloorMs?(startedAt: number, wallOffsetMs: number): number;
  start(): Promise<BenchServer>;
}

/** `headway serve` buckets (token bucket, GCRA) and windows (the three others), as the issue measured. */
export const S6_BUCKET: BucketLimit = { rate: 200, burst: 20 };
export const S6_WINDOW: WindowLimit = { limit: 100, windowMs: 500 };
const HEADWAY_N = 1000;
const WORKERS = 16;

const fmtS = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/**
 * `headway serve` with `algorithm` and header `dialect` (1,000 GETs, 16 workers); a window
 * algorithm counts `windowLimit` (S6's 100 per 500 ms unless given; another one's id ends in its
 * length, e.g. `fixed-window/x-ratelimit/1000ms`).
 */
export function headwayKind(
  algorithm: AlgorithmName,
  dialect: HeaderDialect,
  windowLimit: WindowLimit = S6_WINDOW,
): ServerKind {
  const n = HEADWAY_N;
  const bucket = algorithm === 'token-bucket' || algorithm === 'gcra';
  const own = windowLimit === S6_WINDOW ? '' : `/${windowLimit.windowMs}ms`;
  const base = {
    id: `${algorithm}/${dialect}${own}`,
    headers: dialect,
    group: (dialect === 'none' ? 'retry-after-only' : 'headway') as KindGroup,
    window: !bucket,
    n,
    workers: WORKERS,
  };
  if (bucket)
    return {
      ...base,
      label: `headway ${algorithm} ${S6_BUCKET.rate}/s burst ${S6_BUCKET.burst}`,
      known: S6_BUCKET,
      maxRefused: dialect === 'none' ? 0.05 * n : S6_BUCKET.burst,
      alignMs: undefined,
      formula: `(N − burst)/rate = (${n} − ${S6_BUCKET.burst})/${S6_BUCKET.rate} = ${fmtS(bucketMinimumMs(n, S6_BUCKET))}`,
      minimumMs: () => bucketMinimumMs(n, S6_BUCKET),
      start: () => startServer({ port: 0, algorithm, headers: dialect, ...S6_BUCKET }),
    };
  const { limit: l, windowMs: w } = windowLimit;
  const shape = {
    'fixed-window': {
      formula: `(⌈N/L⌉ − 1)·W − φ = ${Math.ceil(n / l) - 1}·${w} ms − φ = ${fmtS(fixedWindowMinimumMs(n, windowLimit))} − φ`,
      minimumMs: (phase: number) => fixedWindowMinimumMs(n, windowLimit, phase),
      alignMs: w,
    },
    'sliding-log': {
      formula: `(⌈N/L⌉ − 1)·W = ${Math.ceil(n / l) - 1}·${w} ms = ${fmtS(slidingLogMinimumMs(n, windowLimit))}`,
      minimumMs: () => slidingLogMinimumMs(n, windowLimit),
      alignMs: undefined,
    },
    'sliding-window-counter': {
      formula: `(W − φ) + q·W + (r − 1)·W/(L − 1) (see below) = ${fmtS(slidingWindowCounterMinimumMs(n, windowLimit))} − φ`,
      minimumMs: (phase: number) => slidingWindowCounterMinimumMs(n, windowLimit, phase),
      alignMs: w,
    },
  }[algorithm];
  return {
    ...base,
    ...shape,
    label: `headway ${algorithm} ${l}/${w % 1000 === 0 ? `${w / 1000} s` : `${w} ms`}`,
    known: bucketReading(windowLimit),
    maxRefused: l,
    ...(algorithm === 'fixed-window' && dialect === 'x-ratelimit' && 1000 % w === 0
      ? {
          noProbeFloorMs: (at: number, offset: number) =>
            epochResetNoProbeFloorMs(n, windowLimit, at, offset),
        }
      : {}),
    start: () => startServer({ port: 0, algorithm, headers: dialect, burst: l, windowMs: w }),
  };
}

/**
 * A fixed window of L per W ≤ 1 s (W dividing 1 s) aligned to the server's monotonic clock, its
 * reset stated as the epoch second after the window's end (rounded up). A client that never sends
 * before a stated reset spends the first window at t0, and every later window at a stated reset:
 * the first reset R0 = ⌈end of the first window⌉ (epoch), then one window at each whole second
 * after it (whatever window is open then ends within a second, and says R0 + 1 s, + 2 s …). So
 * floor = (R0 − t0) + (⌈N/L⌉ − 2)·1 s.
 */
export function epochResetNoProbeFloorMs(
  n: number,
  { limit, windowMs }: WindowLimit,
  startedAt: number,
  wallOffsetMs: number,
): number {
  const firstEnd = (Math.floor(startedAt / windowMs) + 1) * windowMs;
  const firstReset = Math.ceil((firstEnd + wallOffsetMs) / 1000) * 1000 - wallOffsetMs;
  return firstReset - startedAt + Math.max(0, Math.ceil(n / limit) - 2) * 1000;
}

/** A fixed window per client that starts at its first hit (the third-party limiters). */
function thirdPartyKind(
  id: string,
  label: string,
  headers: string,
  limit: WindowLimit,
  n: number,
  workers: number,
  start: (limit: WindowLimit) => Promise<BenchServer>,
): ServerKind {
  const minMs = fixedWindowMinimumMs(n, limit);
  return {
    id,
    label: `${label} ${limit.limit}/${limit.windowMs / 1000} s`,
    headers,
    group: 'third-party',
    window: true,
    n,
    workers,
    known: bucketReading(limit),
    maxRefused: limit.limit,
    alignMs: undefined,
    formula: `window from the first hit: (⌈N/L⌉ − 1)·W = ${Math.ceil(n / limit.limit) - 1}·${limit.windowMs / 1000} s = ${fmtS(minMs)}`,
    minimumMs: () => minMs,
    start: () => start(limit),
  };
}

/** express-rate-limit 8, fixed window 50/s, 300 GETs from 8 workers (the issue's cell). */
export const expressRateLimitKind = (n = 300): ServerKind =>
  thirdPartyKind(
    'express-rate-limit',
    'express-rate-limit',
    'draft-8 + X-RateLimit',
    { limit: 50, windowMs: 1000 },
    n,
    8,
    startExpressRateLimit,
  );

/** @fastify/rate-limit, fixed window 100/s, 600 GETs from 16 workers. */
export const fastifyRateLimitKind = (n = 600): ServerKind =>
  thirdPartyKind(
    'fastify-rate-limit',
    '@fastify/rate-limit',
    'x-ratelimit',
    { limit: 100, windowMs: 1000 },
    n,
    WORKERS,
    startFastifyRateLimit,
  );

/**
 * Two windows on one key: 100/s burst 20 and 250 per 5 s — the shape of "100/s burst 20 and
 * 3,000/min" (the same sustained rate of the long window, 50/s) with the long window shortened so
 * it binds within seconds. 350 GETs, 16 workers.
 */
export function twoWindowKind(): ServerKind {
  const n = 350;
  const bucket: BucketLimit = { rate: 100, burst: 20 };
  const long: WindowLimit = { limit: 250, windowMs: 5000 };
  const minMs = bucketAndWindowMinimumMs(n, bucket, long);
  return {
    id: 'two-windows',
    label: `two windows: ${bucket.rate}/s burst ${bucket.burst} + ${long.limit}/${long.windowMs / 1000} s`,
    headers: 'ietf, two policies',
    group: 'two-windows',
    window: false,
    n,
    workers: WORKERS,
    known: bucket,
    maxRefused: bucket.burst,
    alignMs: undefined,
    formula: `binding = the long window, filled at the bucket's pace: (⌈N/L⌉ − 1)·W + (m − burst)/rate = ${Math.ceil(n / long.limit) - 1}·${long.windowMs / 1000} s + (${n - (Math.ceil(n / long.limit) - 1) * long.limit} − ${bucket.burst})/${bucket.rate} = ${fmtS(minMs)} (bucket alone: ${fmtS(bucketMinimumMs(n, bucket))})`,
    minimumMs: () => minMs,
    start: () =>
      startMultiPolicyServer([
        { name: 'burst', algorithm: 'token-bucket', policy: bucket },
        { name: 'long', algorithm: 'fixed-window', policy: long },
      ]),
  };
}

/** A proxy that counts refused requests too: sliding log 200/s, bare 429 + `Retry-After: 1`, 1,000 GETs. */
export function countingProxyKind(): ServerKind {
  const n = 1000;
  const limit: WindowLimit = { limit: 200, windowMs: 1000 };
  const minMs = slidingLogMinimumMs(n, limit);
  return {
    id: 'counting-proxy',
    label: `proxy, sliding log ${limit.limit}/s counting refusals`,
    headers: 'bare 429 + Retry-After: 1',
    group: 'retry-after-only',
    window: true,
    n,
    workers: WORKERS,
    known: bucketReading(limit),
    maxRefused: 0.05 * n,
    alignMs: undefined,
    formula: `sliding log, nothing refused: (⌈N/L⌉ − 1)·W = ${Math.ceil(n / limit.limit) - 1}·1 s = ${fmtS(minMs)}`,
    minimumMs: () => minMs,
    start: () => startCountingProxy(limit),
  };
}
