/**
 * One vocabulary for a limit: the rule, written once.
 *
 * A limit is stated one of two ways, and every algorithm accepts both:
 * - as a bucket, {@link BucketConfig}: `rate` units per second sustained and at most `burst` units at
 *   once (`burst` defaults to {@link defaultBurst}). Options and policies say `rate`/`burst`;
 * - as a window: `limit` units per `windowMs` ms.
 *
 * A store holds one form, the window's `{ limit, windowMs }` (`StoreLimit`, also what the Redis
 * scripts receive), and the two meet only here: `burst = limit` and `rate = limit · 1000 / windowMs`.
 * So "200/s with a burst of 20" is `{ limit: 20, windowMs: 100 }`: a bucket algorithm refills 20
 * units per 100 ms, a window algorithm admits 20 per window of 100 ms; and "60 per minute" is a
 * bucket of burst 60 refilling 1 unit per second.
 */

/** A limit stated as a bucket: sustained `rate` and the `burst` that may go at once. */
export interface BucketConfig {
  /** Units per second, sustained. */
  rate: number;
  /** Most units at once (the bucket's size). */
  burst: number;
}

/** The burst of a bucket whose burst is not given: one second of its rate, at least one unit. */
export function defaultBurst(rate: number): number {
  return Math.max(1, rate);
}

/** Units per second of `limit` per `windowMs` (`limit · 1000 / windowMs`). */
export function ratePerSecond(limit: number, windowMs: number): number {
  return (limit * 1000) / windowMs;
}

/**
 * The same rate per ms, `limit / windowMs`, as the stores' bucket math takes it (one division per
 * decision, none per refill; the Lua scripts compute the same).
 */
export function unitsPerMs(limit: number, windowMs: number): number {
  return limit / windowMs;
}

/** `{ limit, windowMs }` as a bucket: `burst = limit`, `rate = limit · 1000 / windowMs`. */
export function bucketOf(limit: number, windowMs: number): BucketConfig {
  return { rate: ratePerSecond(limit, windowMs), burst: limit };
}

/** A bucket as `{ limit, windowMs }`: `burst` units per the `burst / rate` seconds the rate takes to refill them. */
export function windowOf(bucket: BucketConfig): { limit: number; windowMs: number } {
  return { limit: bucket.burst, windowMs: (bucket.burst * 1000) / bucket.rate };
}
