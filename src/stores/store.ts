/**
 * The store interface shared by both faces. A store owns its clock (the memory store a `Clock`,
 * the Redis store Redis's `TIME`), so every duration crossing this interface is *relative* ms:
 * processes whose clocks disagree still share one quota exactly.
 */

import type { AlgorithmName } from '../core/algorithms/names.js';

export type { AlgorithmName };

/**
 * A limit as a store applies it: `limit` units per `windowMs`, the one form stores hold (how a
 * `rate`/`burst` maps onto it is written once, in `src/core/limit.ts`).
 * - window algorithms: at most `limit` units per window of `windowMs`;
 * - token bucket: burst `limit`, rate `limit · 1000 / windowMs` units per second;
 * - GCRA: burst `limit`, one unit every `windowMs / limit` ms.
 * So "200/s with a burst of 20" is `{ limit: 20, windowMs: 100 }`.
 */
export interface StoreLimit {
  algorithm: AlgorithmName;
  limit: number;
  windowMs: number;
}

/** A server-side decision. */
export interface Decision {
  allowed: boolean;
  /** `limit` of the applied limit. */
  limit: number;
  /** Whole units left after this decision. */
  remaining: number;
  /** ms until the quota is whole again (window end, or bucket full). */
  resetMs: number;
  /** 0 when allowed; else the exact ms until a retry of the same cost is admitted. */
  retryAfterMs: number;
}

/**
 * Where limits live. One instance may serve many keys, many limiters and both faces. The Redis
 * store keeps a key's state per algorithm; the memory store keeps one entry per key, so limiters
 * of different algorithms sharing one memory store need keys of their own (each `rateLimit`
 * without a `store` has its own).
 */
export interface RateLimitStore {
  /** Server face: atomically take `cost` units for `key` if they are there, else refuse. */
  take(key: string, limit: StoreLimit, cost: number): Promise<Decision>;
  /**
   * Optional, for in-process stores: `take`, answered at once (no I/O). The limiter calls it
   * instead of `take` when present, with no timeout race and no promise per decision; it must
   * decide exactly as `take` does, and may throw where `take` would reject.
   */
  takeNow?(key: string, limit: StoreLimit, cost: number): Decision;
  /**
   * Client face: atomically book `cost` units for `key` now (token bucket or GCRA) even if they are
   * not there yet, and return how long to wait until they are. Never refuses.
   */
  reserve(key: string, limit: StoreLimit, cost: number): Promise<{ waitMs: number }>;
  /**
   * Client face, optional: gives back `cost` units a `reserve` of the same `limit` booked for a
   * call that was then never sent (its deadline, an abort, a gate that closed), so the next booking
   * may have them; at most back to a fresh key's state. Without it, such units stay booked and the
   * fleet's next bookings wait behind them.
   */
  giveBack?(key: string, limit: StoreLimit, cost: number): Promise<void>;
  /** Client face: keep `key`'s gate closed for at least `ms` more (a gate only extends). Returns ms left closed. */
  holdGate(key: string, ms: number): Promise<number>;
  /** Client face: ms `key`'s gate stays closed (0 when open). */
  gateWait(key: string): Promise<number>;
}
