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
 * rate-limiter-flexible a fixed window with its result object.
 */
import { MemoryStore as ErlMemoryStore } from 'express-rate-limit';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { memoryStore } from '../../src/server/index.js';

export interface MemoryLimiter {
  /** One decision; may reject for a refusal (rate-limiter-flexible). */
  decide(key: string): Promise<unknown>;
  /** Whether the decision `decide` resolved with admitted the request. */
  allowed(result: unknown): boolean;
  close(): void;
}

export interface LimiterSpec {
  id: 'headway' | 'rate-limiter-flexible' | 'express-rate-limit';
  label: string;
  /** `limit` decisions allowed per key per minute; `maxKeys` = keys the store must hold. */
  make(limit: number, maxKeys: number): MemoryLimiter;
}

const ignore = () => undefined;

export const headwayMemory: LimiterSpec = {
  id: 'headway',
  label: 'Headway memoryStore().takeNow (token bucket)',
  make(limit, maxKeys) {
    // maxKeys above the keys in play: the store is bounded, and an evicted key would read as fresh.
    const store = memoryStore({ maxKeys: Math.max(100_000, 2 * maxKeys + 2) });
    const policy = { algorithm: 'token-bucket' as const, limit, windowMs: 60_000 };
    return {
      decide: async (key) => store.takeNow!(key, policy, 1),
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

export const memoryLimiters: readonly LimiterSpec[] = [headwayMemory, rlfMemory, erlMemory];
