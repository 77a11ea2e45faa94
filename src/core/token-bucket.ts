/**
 * Token bucket as pure functions over `{ tokens, updatedAt }`, of a bucket stated as
 * `{ rate, burst }` (see `./limit.ts`). Refill is lazy (computed from the time passed in, no
 * timers), clamped to `burst`, keeps fractional tokens, and a clock that steps back never removes
 * tokens. The server *takes* (allow or refuse with the exact wait); the client *reserves* (books
 * the tokens now and learns exactly how long to wait).
 */
import { checkCost } from './algorithms/cost.js';
import { exactWait } from './algorithms/exact-wait.js';
import type { BucketConfig } from './limit.js';

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

/** Floating-point slack when comparing token counts, so `take` at the computed time succeeds. */
const EPSILON = 1e-9;

/** A full bucket at time `now`. */
export function fullBucket(config: BucketConfig, now: number): BucketState {
  return { tokens: config.burst, updatedAt: now };
}

/**
 * The refill in units per ms of a bucket stated as a {@link BucketConfig} (`rate` is per second).
 * The math below works per ms, so refilling multiplies and a decision divides only for its waits.
 */
function perMsOf(config: BucketConfig): number {
  return config.rate / 1000;
}

/**
 * `tokens` (as of `updatedAt`) plus the refill of `perMs` units per ms until `at > updatedAt`,
 * unclamped. The one refill formula.
 */
function refilled(tokens: number, updatedAt: number, perMs: number, at: number): number {
  return tokens + (at - updatedAt) * perMs;
}

/**
 * `tokens` (as of `updatedAt`) refilled lazily until `at`, clamped to `burst`; a clock that
 * stepped back (or did not move) changes nothing.
 */
function tokensAt(tokens: number, updatedAt: number, burst: number, perMs: number, at: number): number {
  // Tokens held above the burst (a key whose limit was lowered) are clamped to it too.
  if (!(at > updatedAt) || tokens >= burst) return Math.min(tokens, burst);
  return Math.min(burst, refilled(tokens, updatedAt, perMs, at));
}

/** The state at `now`: refilled lazily and clamped to burst; a clock that stepped back changes nothing. */
export function refill(state: BucketState, config: BucketConfig, now: number): BucketState {
  if (!(now > state.updatedAt)) return state;
  const tokens = tokensAt(state.tokens, state.updatedAt, config.burst, perMsOf(config), now);
  return { tokens, updatedAt: now };
}

/**
 * Whole ms from `updatedAt` until a bucket holding `tokens` then holds `cost ≤ burst` (0 if it
 * already does): the first whole ms whose {@link tokensAt} reaches `cost` (less the slack).
 * The analytic estimate `ms` is that ms when the refill formula admits it and not `ms − 1` (the
 * formula is monotone in the wait, and at 0 ms it reads `tokens`); nearly always it does, and
 * {@link searchMsUntil} handles the rest. (Kept small, so the store's hot path inlines it whole.)
 */
function msUntilTokens(tokens: number, updatedAt: number, perMs: number, cost: number): number {
  const need = cost - EPSILON;
  const ms = Math.ceil((cost - tokens) / perMs);
  // `refilled` at `updatedAt + ms` and `updatedAt + (ms − 1)`, written out: two calls of four
  // arguments each would not leave V8's inlining budget room for the cost check.
  return ms >= 1 &&
    tokens + (updatedAt + ms - updatedAt) * perMs >= need &&
    tokens + (updatedAt + (ms - 1) - updatedAt) * perMs < need
    ? ms
    : searchMsUntil(tokens, updatedAt, perMs, need, ms);
}

/**
 * {@link msUntilTokens} when its estimate `ms` is not the answer: 0 if `tokens` already reach
 * `need`; else, from here `tokens < need < burst`, so `tokensAt` reaches `need` exactly when the
 * unclamped refill does, at a time past `updatedAt`: the first whole ms that formula admits,
 * searched from the estimate (at least 1) down while the ms before is admitted too, else up.
 */
function searchMsUntil(
  tokens: number,
  updatedAt: number,
  perMs: number,
  need: number,
  estimate: number,
): number {
  if (tokens >= need) return 0;
  // Bounded steps: a wait past 2⁵³ ms (a refill of 1 per 10²⁰ ms) no longer moves by 1, and
  // unbounded steps froze the process there. (0 is never admitted: the search stays at 1 or more.)
  return exactWait(Math.max(1, estimate), (ms) => {
    const at = updatedAt + ms;
    return at > updatedAt && refilled(tokens, updatedAt, perMs, at) >= need;
  });
}

/** Whole ms from `state.updatedAt` until the bucket holds `cost` tokens (0 if it already does). */
export function msUntil(state: BucketState, config: BucketConfig, cost: number): number {
  return msUntilTokens(state.tokens, state.updatedAt, perMsOf(config), cost);
}

/** What {@link takeInPlace} decides: a server `Decision` (its `limit` is the bucket's burst). */
export interface TakeOutcome {
  allowed: boolean;
  /** The bucket's burst. */
  limit: number;
  remaining: number;
  resetMs: number;
  retryAfterMs: number;
}

/**
 * {@link take} over state held in place: `[tokens, updatedAt]` at `state[at]` and `state[at + 1]`,
 * updated there when admitted, for a bucket of `burst` refilling `perMs` units per ms. Allocates only its answer (the stores' hot path); every other take goes through
 * it. Throws before changing anything when the cost is invalid. The exact waits are searched only
 * for what the outcome needs: `retryAfterMs` only when refused.
 */
export function takeInPlace(
  state: Float64Array,
  at: number,
  burst: number,
  perMs: number,
  now: number,
  cost: number,
): TakeOutcome {
  checkCost(cost, burst);
  const updatedAt = state[at + 1]!;
  const current = tokensAt(state[at]!, updatedAt, burst, perMs, now);
  const stamp = Math.max(now, updatedAt);
  const allowed = current >= cost - EPSILON;
  const left = allowed ? Math.max(0, current - cost) : current;
  // A refusal leaves the state as it was (as the Redis store's script does): refilled later from
  // the same stamp it comes to the same, and a rate changed meanwhile refills alike on both stores.
  if (allowed) {
    state[at] = left;
    state[at + 1] = stamp;
  }
  return {
    allowed,
    limit: burst,
    remaining: Math.max(0, Math.floor(left + EPSILON)),
    resetMs: msUntilTokens(left, stamp, perMs, burst),
    retryAfterMs: allowed ? 0 : msUntilTokens(current, stamp, perMs, cost),
  };
}

/** {@link take} over the state's two numbers: `tokens` as of `updatedAt`. Allocates only its result. */
export function takeTokens(
  tokens: number,
  updatedAt: number,
  config: BucketConfig,
  now: number,
  cost = 1,
): TakeResult {
  const state = new Float64Array([tokens, updatedAt]);
  const { allowed, remaining, retryAfterMs, resetMs } = takeInPlace(
    state,
    0,
    config.burst,
    perMsOf(config),
    now,
    cost,
  );
  return { allowed, remaining, retryAfterMs, resetMs, state: { tokens: state[0]!, updatedAt: state[1]! } };
}

/** Tries to remove `cost` tokens at `now`: allowed, or refused with the exact wait. */
export function take(state: BucketState, config: BucketConfig, now: number, cost = 1): TakeResult {
  return takeTokens(state.tokens, state.updatedAt, config, now, cost);
}

/**
 * Books `cost` tokens at `now` even if they are not there yet, and returns the exact wait until
 * they are. Calls queue fairly: each reservation waits behind the tokens already owed.
 */
export function reserve(state: BucketState, config: BucketConfig, now: number, cost = 1): Reservation {
  return reserveTokens(state, config.burst, perMsOf(config), now, cost);
}

/** {@link reserve} for a bucket of `burst` refilling `perMs` units per ms. */
export function reserveTokens(
  state: BucketState,
  burst: number,
  perMs: number,
  now: number,
  cost: number,
): Reservation {
  checkCost(cost, burst);
  const tokens = tokensAt(state.tokens, state.updatedAt, burst, perMs, now);
  const updatedAt = Math.max(now, state.updatedAt);
  const waitMs = msUntilTokens(tokens, updatedAt, perMs, cost);
  return { state: { tokens: tokens - cost, updatedAt }, waitMs };
}

/** {@link giveBackTokens} for a bucket stated as a {@link BucketConfig}. */
export function giveBack(state: BucketState, config: BucketConfig, now: number, cost: number): BucketState {
  return giveBackTokens(state, config.burst, perMsOf(config), now, cost);
}

/**
 * Gives back `cost` tokens a {@link reserveTokens} booked for a call that was never sent: the
 * bucket as refilled until `now`, plus `cost`, at most full (a booking made before the bucket
 * refilled to full gives back nothing beyond it).
 */
export function giveBackTokens(
  state: BucketState,
  burst: number,
  perMs: number,
  now: number,
  cost: number,
): BucketState {
  checkCost(cost, burst);
  const tokens = tokensAt(state.tokens, state.updatedAt, burst, perMs, now);
  return { tokens: Math.min(burst, tokens + cost), updatedAt: Math.max(now, state.updatedAt) };
}
