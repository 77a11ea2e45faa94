/**
 * The in-process server limiters of S5 behind one shape: `decide(key)` makes one decision and
 * settles (never rejects) with a promise, and the loop awaits each once. Each is measured through the
 * call its own middleware makes: Headway's `rateLimit` calls the memory store's synchronous
 * `takeNow` (wrapped here in an async function, so it pays the same promise as the peers);
 * rate-limiter-flexible's `RateLimiterMemory({ points, duration })` and `consume(key)` (which rejects when refused);
 * express-rate-limit's `MemoryStore`, `init({ windowMs })` then `increment(key)` (the middleware
 * compares the count with its limit, so allow and deny cost the store the same).
 */
import { MemoryStore as ErlMemoryStore } from 'express-rate-limit';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { memoryStore } from '../../src/server/index.js';

export interface MemoryLimiter {
  decide(key: string): Promise<unknown>;
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
    return { decide: async (key) => store.takeNow!(key, policy, 1), close: ignore };
  },
};

export const rlfMemory: LimiterSpec = {
  id: 'rate-limiter-flexible',
  label: 'rate-limiter-flexible RateLimiterMemory.consume',
  make(limit) {
    const limiter = new RateLimiterMemory({ points: limit, duration: 60 });
    return { decide: (key) => limiter.consume(key).catch(ignore), close: ignore };
  },
};

export const erlMemory: LimiterSpec = {
  id: 'express-rate-limit',
  label: 'express-rate-limit MemoryStore.increment',
  make() {
    const store = new ErlMemoryStore();
    store.init({ windowMs: 60_000 } as Parameters<ErlMemoryStore['init']>[0]);
    return { decide: (key) => store.increment(key), close: () => store.shutdown() };
  },
};

export const memoryLimiters: readonly LimiterSpec[] = [headwayMemory, rlfMemory, erlMemory];
