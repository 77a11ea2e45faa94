/**
 * The in-process server limiters of S5 behind one shape: `decide(key)` makes one decision and
 * settles with one promise that the loop awaits once, and `allowed(result)` reads the verdict from
 * what it settled with, synchronously (a rejection is a refusal). Each is measured through the call
 * its own middleware makes, and judged the way that middleware judges it:
 * - Headway's `rateLimit` calls the memory store's synchronous `takeNow` (wrapped here in an async
 *   function, so it pays the same promise as the peers, which its middleware does not) and reads
 *   `decision.allowed`;
 * - rate-limiter-flexible's `RateLimiterMemory({ points, duration })`, `consume(key)`, which rejects
 *   when refused (awaited inside `try`, as its middleware does: no `.catch` promise of ours);
 * - express-rate-limit's `MemoryStore`, `init({ windowMs })` then `increment(key)`, and the
 *   middleware's `totalHits > limit` (the store counts; the limit lives in the middleware).
 * The loop counts the verdicts, so a cell whose limiter is not in the regime it claims fails.
 *
 * What each computes differs, and the bench does not hide it: erl is a fixed-window counter (a hit
 * count and a reset time); Headway's default is a token bucket with an exact `retryAfterMs`;
 * rate-limiter-flexible a fixed window with its result object. Two reference rows put numbers on
 * that difference, in the same harness: Headway's own fixed window (the peers' algorithm), and the
 * floor of an in-memory token bucket ({@link bucketFloor}).
 */
import { MemoryStore as ErlMemoryStore } from 'express-rate-limit';
import { memoryStore } from 'headway/server';
import { RateLimiterMemory } from 'rate-limiter-flexible';

export interface MemoryLimiter {
  /** One decision; may reject for a refusal (rate-limiter-flexible). */
  decide(key: string): Promise<unknown>;
  /** Whether the decision `decide` resolved with admitted the request. */
  allowed(result: unknown): boolean;
  close(): void;
}

export interface LimiterSpec {
  id: 'headway' | 'rate-limiter-flexible' | 'express-rate-limit' | 'headway-fixed-window' | 'bucket-floor';
  label: string;
  /** `limit` decisions allowed per key per minute; `maxKeys` = keys the store must hold. */
  make(limit: number, maxKeys: number): MemoryLimiter;
}

const ignore = () => undefined;

/** Headway's memory store running `algorithm`. */
function headwayWith(algorithm: 'token-bucket' | 'fixed-window'): LimiterSpec['make'] {
  return (limit, maxKeys) => {
    // maxKeys above the keys in play: the store is bounded, and an evicted key would read as fresh.
    const store = memoryStore({ maxKeys: Math.max(100_000, 2 * maxKeys + 2) });
    const policy = { algorithm, limit, windowMs: 60_000 };
    return {
      decide: async (key) => store.takeNow!(key, policy, 1),
      allowed: (decision) => (decision as { allowed: boolean }).allowed,
      close: ignore,
    };
  };
}

export const headwayMemory: LimiterSpec = {
  id: 'headway',
  label: 'Headway memoryStore().takeNow (token bucket)',
  make: headwayWith('token-bucket'),
};

/** Reference row: Headway's fixed window, the algorithm erl and RLF count (decided in place too). */
export const headwayFixedWindow: LimiterSpec = {
  id: 'headway-fixed-window',
  label: 'Headway memoryStore().takeNow (fixed window)',
  make: headwayWith('fixed-window'),
};

/**
 * Reference row, the floor of an in-memory token bucket in this harness: a bare `Map` from key to
 * a `Float64Array [tokens, updatedAt]`, one `performance.now()` (Headway's clock), the lazy refill
 * clamped to the burst (a clock that stepped back adds nothing), a refusal that removes nothing,
 * and a fresh decision object with the same five fields, its waits the analytic `ceil` estimates.
 * What it leaves out, Headway does: the exact search for `retryAfterMs` and `resetMs` (an estimate
 * can be a millisecond short), bounded memory (this `Map` grows without end), the cost check, and
 * the store interface (one store, any algorithm, any limit per call).
 */
export const bucketFloor: LimiterSpec = {
  id: 'bucket-floor',
  label: 'floor: bare token bucket (Map, one clock read, estimated waits)',
  make(limit) {
    const buckets = new Map<string, Float64Array>();
    const rate = limit / 60_000; // tokens per ms
    const clock = performance;
    return {
      decide: async (key) => {
        const now = clock.now();
        let bucket = buckets.get(key);
        if (bucket === undefined) {
          bucket = Float64Array.of(limit, now);
          buckets.set(key, bucket);
        }
        const then = bucket[1]!;
        const tokens = now > then ? Math.min(limit, bucket[0]! + (now - then) * rate) : bucket[0]!;
        const allowed = tokens >= 1;
        const left = allowed ? tokens - 1 : tokens;
        bucket[0] = left;
        bucket[1] = Math.max(now, then);
        return {
          allowed,
          limit,
          remaining: Math.floor(left),
          resetMs: Math.ceil((limit - left) / rate),
          retryAfterMs: allowed ? 0 : Math.ceil((1 - tokens) / rate),
        };
      },
      allowed: (decision) => (decision as { allowed: boolean }).allowed,
      close: ignore,
    };
  },
};

export const rlfMemory: LimiterSpec = {
  id: 'rate-limiter-flexible',
  label: 'rate-limiter-flexible RateLimiterMemory.consume',
  make(limit) {
    const limiter = new RateLimiterMemory({ points: limit, duration: 60 });
    return { decide: (key) => limiter.consume(key), allowed: () => true, close: ignore };
  },
};

export const erlMemory: LimiterSpec = {
  id: 'express-rate-limit',
  label: 'express-rate-limit MemoryStore.increment',
  make(limit) {
    const store = new ErlMemoryStore();
    store.init({ windowMs: 60_000 } as Parameters<ErlMemoryStore['init']>[0]);
    return {
      decide: (key) => store.increment(key),
      allowed: (client) => (client as { totalHits: number }).totalHits <= limit,
      close: () => store.shutdown(),
    };
  },
};

/** Headway (token bucket, the verdicts' row) and its peers. */
export const memoryLimiters: readonly LimiterSpec[] = [headwayMemory, rlfMemory, erlMemory];

/** Rows measured beside them for reference, never judged. */
export const memoryReferences: readonly LimiterSpec[] = [headwayFixedWindow, bucketFloor];
