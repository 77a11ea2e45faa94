/**
 * Token bucket, on the core bucket math (`src/core/token-bucket.ts`).
 *
 * Semantics (mirrored by the Redis store's Lua):
 * - capacity (burst) = `limit`; refill `limit / windowMs` units per ms, lazily, fractional tokens kept;
 * - state `[tokens, updatedAt]`; a fresh key is full;
 * - allowed iff `tokens ≥ cost` after refill; a refusal removes nothing;
 * - `remaining` = whole tokens left; `resetMs` = whole ms until full;
 * - `retryAfterMs` = the smallest whole ms after which `cost` tokens are there.
 *
 * Bound: over any interval of t ms, admitted cost ≤ `limit + limit · t / windowMs` (burst + rate·t).
 */

import type { StoreLimit } from '../../stores/store.js';
import { type BucketConfig, type BucketState, fullBucket, reserve, takeTokens } from '../token-bucket.js';
import type { Algorithm, AlgorithmState } from './types.js';

function config(limit: StoreLimit): BucketConfig {
  return { capacity: limit.limit, refillPerSecond: (limit.limit * 1000) / limit.windowMs };
}

function load(state: AlgorithmState, bucket: BucketConfig, now: number): BucketState {
  return state && state.length === 2 ? { tokens: state[0]!, updatedAt: state[1]! } : fullBucket(bucket, now);
}

/** The token-bucket algorithm. */
export const tokenBucket: Algorithm = {
  take(state, limit, now, cost) {
    const bucket = config(limit);
    const fresh = !(state && state.length === 2);
    const result = takeTokens(fresh ? limit.limit : state[0]!, fresh ? now : state[1]!, bucket, now, cost);
    return {
      decision: {
        allowed: result.allowed,
        limit: limit.limit,
        remaining: result.remaining,
        resetMs: result.resetMs,
        retryAfterMs: result.retryAfterMs,
      },
      state: [result.state.tokens, result.state.updatedAt],
      expiresInMs: result.resetMs,
    };
  },
  reserve(state, limit, now, cost) {
    const bucket = config(limit);
    const booked = reserve(load(state, bucket, now), bucket, now, cost);
    const full = Math.ceil(((limit.limit - booked.state.tokens) * limit.windowMs) / limit.limit);
    return {
      waitMs: booked.waitMs,
      state: [booked.state.tokens, booked.state.updatedAt],
      expiresInMs: Math.max(0, full),
    };
  },
};
