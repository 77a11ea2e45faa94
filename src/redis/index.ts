/**
 * Headway, Redis store: one atomic quota shared by many processes, for both faces.
 * @packageDocumentation
 */
export type { HeadwayErrorByCode, HeadwayErrorCode } from '../errors.js';
export { isHeadwayError, StoreError, StoreTimeoutError, UnsupportedAlgorithmError } from '../errors.js';
export type { AlgorithmName, Decision, RateLimitStore, StoreLimit } from '../stores/store.js';
export type { RedisScriptClient } from './redis-client.js';
export type { RedisStoreOptions } from './redis-store.js';
export { redisStore, redisStoreDefaults } from './redis-store.js';
