/**
 * Retry budget (after Finagle's RetryBudget): retries may add at most `ratio` of the original
 * requests plus a floor of `minPerSecond`. O(1) state, updated in place (no object per request): a balance that each request raises by
 * `ratio`, time raises by `minPerSecond`, each retry lowers by 1, and that never exceeds the
 * reserve `max(1, minPerSecond · ttlMs / 1000)` — so good times cannot bank an unbounded retry storm.
 *
 * Bound: over any interval of t seconds, retries ≤ reserve + ratio·requests + minPerSecond·t.
 */
import { invalid, nonNegative, onlyFields, positive, ratio } from './validate.js';

/** Budget shape. */
export interface RetryBudgetOptions {
  /** Share of original requests that may be retried. @default 0.2 */
  ratio: number;
  /** Retries per second always allowed, even with little traffic. @default 10 */
  minPerSecond: number;
  /** How long earned credit lasts, in ms: sets the reserve to `minPerSecond · ttl`. @default 10_000 */
  ttlMs: number;
}

/** Budget state. */
export interface RetryBudgetState {
  balance: number;
  updatedAt: number;
}

/** Finagle's defaults: 20 %, 10 retries/s, 10 s. */
export const defaultRetryBudget: RetryBudgetOptions = { ratio: 0.2, minPerSecond: 10, ttlMs: 10_000 };

/** Validates a budget shape. */
export function validateRetryBudget(options: RetryBudgetOptions, name = 'retryBudget'): RetryBudgetOptions {
  if (typeof options !== 'object' || options === null)
    invalid(name, 'an object like { ratio, minPerSecond, ttlMs }', options);
  onlyFields(options, defaultRetryBudget, `${name}.`);
  ratio(`${name}.ratio`, options.ratio);
  nonNegative(`${name}.minPerSecond`, options.minPerSecond);
  positive(`${name}.ttlMs`, options.ttlMs);
  return options;
}

/** The most retry credit the budget holds: `minPerSecond · ttl`, and at least one retry. */
export function budgetReserve(options: RetryBudgetOptions): number {
  return Math.max(1, (options.minPerSecond * options.ttlMs) / 1000);
}

/** A fresh budget holding its reserve. */
export function newRetryBudget(options: RetryBudgetOptions, now: number): RetryBudgetState {
  return { balance: budgetReserve(options), updatedAt: now };
}

/** Adds the credit time earned since the last update (a clock that stepped back earns none and takes none). */
function accrue(state: RetryBudgetState, options: RetryBudgetOptions, now: number): void {
  if (!(now > state.updatedAt)) return;
  const balance = state.balance + ((now - state.updatedAt) * options.minPerSecond) / 1000;
  state.balance = Math.min(budgetReserve(options), balance);
  state.updatedAt = now;
}

/** Records an original (non-retry) request: earns `ratio` of a retry. */
export function depositRequest(state: RetryBudgetState, options: RetryBudgetOptions, now: number): void {
  accrue(state, options, now);
  state.balance = Math.min(budgetReserve(options), state.balance + options.ratio);
}

/** Tries to spend one retry: false means the budget is spent (the state only accrued). */
export function withdrawRetry(state: RetryBudgetState, options: RetryBudgetOptions, now: number): boolean {
  accrue(state, options, now);
  if (state.balance < 1 - 1e-9) return false;
  state.balance -= 1;
  return true;
}

/** Gives back a retry withdrawn and then not sent (its call ended first), at most to the reserve. */
export function refundRetry(state: RetryBudgetState, options: RetryBudgetOptions): void {
  state.balance = Math.min(budgetReserve(options), state.balance + 1);
}

/** Whole retries available now. */
export function retriesLeft(state: RetryBudgetState, options: RetryBudgetOptions, now: number): number {
  accrue(state, options, now);
  return Math.floor(state.balance + 1e-9);
}
