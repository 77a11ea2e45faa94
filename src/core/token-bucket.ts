/**
 * Token bucket as pure functions over `{ tokens, updatedAt }`. Refill is lazy (computed from the
 * time passed in, no timers), clamped to `capacity`, keeps fractional tokens, and a clock that
 * steps back never removes tokens. The server *takes* (allow or refuse with the exact wait); the
 * client *reserves* (books the tokens now and learns exactly how long to wait).
 */
import { checkCost } from './algorithms/cost.js';

/** The shape of a bucket. */
export interface BucketConfig {
  /** Most tokens the bucket holds: the burst. */
  capacity: number;
  /** Tokens added per second: the sustained rate. */
  refillPerSecond: number;
}

/** A bucket's state. `tokens` may be negative after reservations (tokens owed). */
export interface BucketState {
  tokens: number;
  /** Clock time (ms) the tokens were last computed at. */
  updatedAt: number;
}

/** Outcome of {@link take}. */
export interface TakeResult {
  allowed: boolean;
  /** New state: tokens removed when allowed, only refilled when refused. */
  state: BucketState;
  /** Whole tokens left after this decision. */
  remaining: number;
  /** 0 when allowed; else the exact ms until `cost` tokens are available. */
  retryAfterMs: number;
  /** ms until the bucket is full again. */
  resetMs: number;
}

/** Outcome of {@link reserve}. */
export interface Reservation {
  /** New state with the tokens booked (possibly negative). */
  state: BucketState;
  /** Exact ms to wait before the reserved tokens are really there. */
  waitMs: number;
}

/** The burst of a bucket whose burst is not given: one second of its rate, at least one unit. */
export function defaultBurst(rate: number): number {
  return Math.max(1, rate);
}

/** Floating-point slack when comparing token counts, so `take` at the computed time succeeds. */
const EPSILON = 1e-9;

/** A full bucket at time `now`. */
export function fullBucket(config: BucketConfig, now: number): BucketState {
  return { tokens: config.capacity, updatedAt: now };
}

/** The state at `now`: refilled lazily and clamped to capacity; a clock that stepped back changes nothing. */
export function refill(state: BucketState, config: BucketConfig, now: number): BucketState {
  if (!(now > state.updatedAt)) return state;
  if (state.tokens >= config.capacity) return { tokens: state.tokens, updatedAt: now };
  const tokens = Math.min(
    config.capacity,
    state.tokens + ((now - state.updatedAt) * config.refillPerSecond) / 1000,
  );
  return { tokens, updatedAt: now };
}

/** Whole ms from `state.updatedAt` until the bucket holds `cost` tokens (0 if it already does). */
export function msUntil(state: BucketState, config: BucketConfig, cost: number): number {
  const enough = (ms: number) => refill(state, config, state.updatedAt + ms).tokens >= cost - EPSILON;
  if (enough(0)) return 0;
  let ms = Math.ceil(((cost - state.tokens) * 1000) / config.refillPerSecond);
  while (ms > 1 && enough(ms - 1)) ms--;
  while (!enough(ms)) ms++;
  return ms;
}

/** Tries to remove `cost` tokens at `now`: allowed, or refused with the exact wait. */
export function take(state: BucketState, config: BucketConfig, now: number, cost = 1): TakeResult {
  checkCost(cost, config.capacity);
  const current = refill(state, config, now);
  const allowed = current.tokens >= cost - EPSILON;
  const next = allowed
    ? { tokens: Math.max(0, current.tokens - cost), updatedAt: current.updatedAt }
    : current;
  return {
    allowed,
    state: next,
    remaining: Math.max(0, Math.floor(next.tokens + EPSILON)),
    retryAfterMs: allowed ? 0 : msUntil(current, config, cost),
    resetMs: msUntil(next, config, config.capacity),
  };
}

/**
 * Books `cost` tokens at `now` even if they are not there yet, and returns the exact wait until
 * they are. Calls queue fairly: each reservation waits behind the tokens already owed.
 */
export function reserve(state: BucketState, config: BucketConfig, now: number, cost = 1): Reservation {
  checkCost(cost, config.capacity);
  const current = refill(state, config, now);
  const waitMs = msUntil(current, config, cost);
  return { state: { tokens: current.tokens - cost, updatedAt: current.updatedAt }, waitMs };
}
