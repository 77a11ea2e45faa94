/**
 * Headway, client face: pacing, server signals, retries inside a budget.
 * @packageDocumentation
 */

export type { Cost, CostByUnit } from './client/cost.js';
export type { HeadwayFetch } from './client/create-fetch.js';
export { createFetch } from './client/create-fetch.js';
export type { GiveUpEvent, RateLimitedEvent, RetryEvent, ThrottleEvent } from './client/events.js';
export type { HoldReason, KeyStats } from './client/key-lane.js';
export { estimateTokens, llmCost, openaiUsage, type TokenEstimateOptions } from './client/llm-cost.js';
export type { RateSource } from './client/models/model.js';
export type { ClientOptions, FetchLike, HeadwayInit, KeyOptions } from './client/options.js';
export { defaultKeyOptions } from './client/options.js';
export type { PacerSnapshot } from './client/pacer.js';
export type { RequestDescription } from './client/request.js';
export type { RetryReason } from './client/retry-policy.js';
export type { Verdict } from './client/verdict.js';
export type { BackoffOptions, Random } from './core/backoff.js';
export type { Clock } from './core/clock.js';
export { systemClock } from './core/clock.js';
export type { BucketConfig } from './core/limit.js';
export type { RetryBudgetOptions } from './core/retry-budget.js';
export type { CallFacts, HeadwayErrorByCode, HeadwayErrorCode } from './errors.js';
export {
  AbortError,
  DeadlineExceededError,
  HeadwayError,
  InvalidCostError,
  InvalidOptionError,
  isHeadwayError,
  QueueFullError,
  RateLimitedError,
  RetryBudgetExhaustedError,
  StoreError,
  StoreTimeoutError,
  TimeoutError,
  UnsupportedAlgorithmError,
} from './errors.js';
export type { HeaderRecord, HeaderSource } from './signals/fields.js';
export type { RateLimitResponse, ReadRateLimitOptions } from './signals/read-rate-limit.js';
export { readRateLimit } from './signals/read-rate-limit.js';
export type { RateLimitDialect, RateLimitPolicy, RateLimitSignal } from './signals/signal.js';
export { type MemoryStore, type MemoryStoreOptions, memoryStore } from './stores/memory.js';
export type { AlgorithmName, Decision, RateLimitStore, StoreLimit } from './stores/store.js';
