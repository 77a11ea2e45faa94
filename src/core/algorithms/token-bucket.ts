/**
 * Token bucket, on the core bucket math (`src/core/token-bucket.ts`).
 *
 * Semantics (mirrored by the Redis store's Lua), with the limit read as a bucket (`src/core/limit.ts`):
 * - burst = `limit`; rate = `limit · 1000 / windowMs` units per second (the math runs per ms,
 *   `limit / windowMs`), refilled lazily, fractional tokens kept;
 * - state `[tokens, updatedAt]`; a fresh key is full;
 * - allowed iff `tokens ≥ cost` after refill; a refusal removes nothing;
 * - `remaining` = whole tokens left; `resetMs` = whole ms until full;
 * - `retryAfterMs` = the smallest whole ms after which `cost` tokens are there;
 * - give-back (of units a reservation booked for a call never sent): tokens + cost, at most the burst.
 *
 * Bound: over any interval of t ms, admitted cost ≤ `limit + limit · t / windowMs` (burst + rate·t).
 */

import type { StoreLimit } from '../../stores/store.js';
import { unitsPerMs } from '../limit.js';
import { type BucketState, giveBackTokens, reserveTokens, takeInPlace } from '../token-bucket.js';
import { checkCost } from './cost.js';
import { type Algorithm, type AlgorithmState, type InPlaceTake, takeViaInPlace } from './types.js';

/** The stored state, or a fresh key's: a full bucket at `now`. */
function load(state: AlgorithmState, limit: StoreLimit, now: number): BucketState {
  return state && state.length === 2
    ? { tokens: state[0]!, updatedAt: state[1]! }
    : { tokens: limit.limit, updatedAt: now };
}

/** Sets a fresh key's state: a full bucket at `now` (after the cost check: an invalid cost changes nothing). */
function fill(state: Float64Array, at: number, limit: StoreLimit, now: number, cost: number): void {
  checkCost(cost, limit.limit);
  state[at] = limit.limit;
  state[at + 1] = now;
}

const inPlace: InPlaceTake = {
  width: 2,
  take(state, at, fresh, limit, now, cost) {
    // Rare branches stay calls, so the hot path is small enough for V8 to inline whole.
    if (fresh) fill(state, at, limit, now, cost);
    return takeInPlace(state, at, limit.limit, unitsPerMs(limit.limit, limit.windowMs), now, cost);
  },
};

/** The token-bucket algorithm. */
export const tokenBucket: Algorithm = {
  inPlace,
  take: takeViaInPlace(inPlace),
  reserve(state, limit, now, cost) {
    const perMs = unitsPerMs(limit.limit, limit.windowMs);
    const booked = reserveTokens(load(state, limit, now), limit.limit, perMs, now, cost);
    return {
      waitMs: booked.waitMs,
      state: [booked.state.tokens, booked.state.updatedAt],
      expiresInMs: msUntilFull(booked.state.tokens, limit),
    };
  },
  giveBack(state, limit, now, cost) {
    const perMs = unitsPerMs(limit.limit, limit.windowMs);
    const back = giveBackTokens(load(state, limit, now), limit.limit, perMs, now, cost);
    return { state: [back.tokens, back.updatedAt], expiresInMs: msUntilFull(back.tokens, limit) };
  },
};

/** Whole ms until a bucket holding `tokens` is full again (its state then equals a fresh key's). */
function msUntilFull(tokens: number, limit: StoreLimit): number {
  return Math.max(0, Math.ceil(((limit.limit - tokens) * limit.windowMs) / limit.limit));
}
