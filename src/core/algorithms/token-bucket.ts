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
import { type BucketConfig, type BucketState, fullBucket, reserve, takeInPlace } from '../token-bucket.js';
import { checkCost } from './cost.js';
import { type Algorithm, type AlgorithmState, type InPlaceTake, takeViaInPlace } from './types.js';

function config(limit: StoreLimit): BucketConfig {
  return { capacity: limit.limit, refillPerSecond: (limit.limit * 1000) / limit.windowMs };
}

function load(state: AlgorithmState, bucket: BucketConfig, now: number): BucketState {
  return state && state.length === 2 ? { tokens: state[0]!, updatedAt: state[1]! } : fullBucket(bucket, now);
}

let ratedLimit = Number.NaN;
let ratedWindowMs = Number.NaN;
let ratedPerSecond = Number.NaN;
/** Tokens per second of `limit` (`limit · 1000 / windowMs`, as the Lua computes it), kept for the last limit seen. */
function perSecondOf(limit: StoreLimit): number {
  if (limit.limit !== ratedLimit || limit.windowMs !== ratedWindowMs) {
    ratedLimit = limit.limit;
    ratedWindowMs = limit.windowMs;
    ratedPerSecond = (limit.limit * 1000) / limit.windowMs;
  }
  return ratedPerSecond;
}

const inPlace: InPlaceTake = {
  width: 2,
  take(state, at, fresh, limit, now, cost, out) {
    if (fresh) {
      checkCost(cost, limit.limit); // before the state is set: an invalid cost changes nothing
      state[at] = limit.limit;
      state[at + 1] = now;
    }
    takeInPlace(state, at, limit.limit, perSecondOf(limit), now, cost, out);
    return out.resetMs;
  },
};

/** The token-bucket algorithm. */
export const tokenBucket: Algorithm = {
  inPlace,
  take: takeViaInPlace(inPlace),
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
