/**
 * Headway, server face: the reference rate limiter.
 * @packageDocumentation
 */
export type { BucketConfig, TakeResult } from '../core/token-bucket.js';
export { take } from '../core/token-bucket.js';
