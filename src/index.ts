/**
 * Headway, client face: pacing, server signals, retries inside a budget.
 * @packageDocumentation
 */

export type { BackoffOptions, Random } from './core/backoff.js';
export { decorrelatedJitter, defaultBackoff, exponentialCeiling, fullJitter } from './core/backoff.js';
export type { Clock } from './core/clock.js';
export { systemClock } from './core/clock.js';
export { ManualClock } from './core/manual-clock.js';
export type { RetryBudgetOptions, RetryBudgetState } from './core/retry-budget.js';
export {
  budgetReserve,
  defaultRetryBudget,
  depositRequest,
  newRetryBudget,
  retriesLeft,
  withdrawRetry,
} from './core/retry-budget.js';
export type { BucketConfig, BucketState, Reservation, TakeResult } from './core/token-bucket.js';
export { fullBucket, msUntil, refill, reserve, take } from './core/token-bucket.js';
export type { HeadwayErrorCode } from './errors.js';
export { AbortError, HeadwayError, InvalidCostError, InvalidOptionError, isHeadwayError } from './errors.js';
export type { HeaderRecord, HeaderSource } from './signals/fields.js';
export type { RateLimitResponse, ReadRateLimitOptions } from './signals/read-rate-limit.js';
export { readRateLimit } from './signals/read-rate-limit.js';
export type { RateLimitDialect, RateLimitPolicy, RateLimitSignal } from './signals/signal.js';
