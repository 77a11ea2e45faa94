/**
 * Token bucket, on the core bucket math (`src/core/token-bucket.ts`).
 *
 * Semantics (mirrored by the Redis store's Lua), with the limit read as a bucket (`src/core/limit.ts`):
 * - burst = `limit`; rate = `limit · 1000 / windowMs` units per second, refilled lazily, fractional tokens kept;
 * - state `[tokens, updatedAt]`; a fresh key is full;
 * - allowed iff `tokens ≥ cost` after refill; a refusal removes nothing;
 * - `remaining` = whole tokens left; `resetMs` = whole ms until full;
 * - `retryAfterMs` = the smallest whole ms after which `cost` tokens are there.
 *
 * Bound: over any interval of t ms, admitted cost ≤ `limit + limit · t / windowMs` (burst + rate·t).
 */

import type { StoreLimit } from '../../stores/store.js';
import { type BucketConfig, bucketOf, ratePerSecond } from '../limit.js';
import { type BucketState, fullBucket, reserve, takeInPlace } from '../token-bucket.js';
import { checkCost } from './cost.js';
import { type Algorithm, type AlgorithmState, type InPlaceTake, takeViaInPlace } from './types.js';

function load(state: AlgorithmState, bucket: BucketConfig, now: number): BucketState {
  return state && state.length === 2 ? { tokens: state[0]!, updatedAt: state[1]! } : fullBucket(bucket, now);
}

let ratedLimit = Number.NaN;
let ratedWindowMs = Number.NaN;
let ratedPerSecond = Number.NaN;
/** {@link ratePerSecond} of `limit`, kept for the last limit seen (a division per decision saved). */
function perSecondOf(limit: StoreLimit): number {
  if (limit.limit !== ratedLimit || limit.windowMs !== ratedWindowMs) {
    ratedLimit = limit.limit;
    ratedWindowMs = limit.windowMs;
    ratedPerSecond = ratePerSecond(limit.limit, limit.windowMs);
  }
  return ratedPerSecond;
}

const inPlace: InPlaceTake = {
  width: 2,
  take(state, at, fresh, limit, now, cost) {
    if (fresh) {
      checkCost(cost, limit.limit); // before the state is set: an invalid cost changes nothing
      state[at] = limit.limit;
      state[at + 1] = now;
    }
    return takeInPlace(state, at, limit.limit, ratePerSecond(limit.limit, limit.windowMs), now, cost);
  },
};

/** The token-bucket algorithm. */
export const tokenBucket: Algorithm = {
  inPlace,
  take: takeViaInPlace(inPlace),
  reserve(state, limit, now, cost) {
    const bucket = bucketOf(limit.limit, limit.windowMs);
    const booked = reserve(load(state, bucket, now), bucket, now, cost);
    const full = Math.ceil(((limit.limit - booked.state.tokens) * limit.windowMs) / limit.limit);
    return {
      waitMs: booked.waitMs,
      state: [booked.state.tokens, booked.state.updatedAt],
      expiresInMs: Math.max(0, full),
    };
  },
};
