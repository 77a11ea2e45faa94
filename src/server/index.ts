/**
 * Headway, server face: the reference rate limiter.
 * @packageDocumentation
 */

export { algorithms } from '../core/algorithms/index.js';
export type {
  Algorithm,
  AlgorithmGiveBack,
  AlgorithmReserve,
  AlgorithmState,
  AlgorithmTake,
} from '../core/algorithms/types.js';
export type { BucketConfig } from '../core/limit.js';
export type { BucketState, Reservation, TakeResult } from '../core/token-bucket.js';
export { reserve, take } from '../core/token-bucket.js';
export type { MemoryStore, MemoryStoreOptions } from '../stores/memory.js';
export { memoryStore } from '../stores/memory.js';
export type { AlgorithmName, Decision, RateLimitStore, StoreLimit } from '../stores/store.js';
export {
  type ExpressMiddleware,
  type ExpressNext,
  type ExpressRequest,
  type ExpressResponse,
  expressRateLimit,
} from './adapters/express.js';
export type { FetchAdapterOptions, FetchGuard } from './adapters/fetch.js';
export { fetchRateLimit, withRateLimit } from './adapters/fetch.js';
export {
  type HonoContext,
  type HonoMiddleware,
  type HonoNext,
  type HonoResult,
  honoRateLimit,
} from './adapters/hono.js';
export type { NodeAdapterOptions } from './adapters/node.js';
export { limitNodeRequest, nodeRateLimit } from './adapters/node.js';
export type { CorsOption, CorsOptions } from './cors.js';
export { corsHeaders, isPreflight, preflightHeaders } from './cors.js';
export { dialects } from './headers/index.js';
export { quotaOf } from './headers/quota.js';
export type { HeaderDialect, HeaderInput, HeaderList } from './headers/types.js';
export { ipIdentity } from './ip-group.js';
export type { KeyMetrics, RateLimitMetrics } from './metrics.js';
export { nodeRequest } from './node-request.js';
export type { DecisionEvent, RateLimitOptions } from './options.js';
export { rateLimitDefaults } from './options.js';
export type { LimitOutcome } from './outcome.js';
export { refusalResponse, withRateLimitHeaders } from './outcome.js';
export type { Policy, ResolvedPolicy } from './policy.js';
export { resolvePolicy } from './policy.js';
export type { RateLimiter } from './rate-limit.js';
export { rateLimit } from './rate-limit.js';
export type { ClientInfo, LimitRequest } from './request.js';
export type { RunningServer, ServeOptions } from './serve.js';
export { serveDefaults, startServer } from './serve.js';
