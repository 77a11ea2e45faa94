/**
 * The in-process store: every algorithm, bounded memory.
 *
 * Each key holds one flat number array `[expiresAt, ...algorithmState]` (three numbers for most
 * algorithms). Keys live in two generations of `Map`s, as in hashlru/quick-lru — an approximate
 * least-recently-used cache with O(1) work per call (evicting from the front of one big `Map`
 * would rescan its deleted slots on every call):
 * - new and touched keys go to the current generation; when it holds `maxKeys / 2` keys it
 *   becomes the previous generation and the old previous one is dropped, so at most `maxKeys`
 *   keys are ever held, and a key touched within the last `maxKeys / 2` distinct keys survives;
 * - the generations also rotate every `idleMs` (on a call), so a key untouched for `2 · idleMs` is
 *   gone (dropping it forgets its usage: keep `idleMs` above your longest window);
 * - on every call a couple of previous-generation keys whose state is back to fresh (`expiresAt`
 *   passed, so dropping changes nothing) are dropped early.
 * Gates live in the same maps under a separate namespace.
 */
import { type Clock, steadyNow, systemClock } from '../core/clock.js';
import { invalid, positive, positiveInteger, withDefaults } from '../core/validate.js';
import { UnsupportedAlgorithmError } from '../errors.js';
import { algorithms } from '../server/algorithms/index.js';
import type { Decision, RateLimitStore, StoreLimit } from './store.js';

/** Options of {@link memoryStore}. */
export interface MemoryStoreOptions {
  /** Most keys held (at least 2); beyond it the least recently used keys are evicted. @default 100_000 */
  maxKeys: number;
  /** Generation lifetime: a key untouched for twice this long is dropped. @default 3_600_000 */
  idleMs: number;
  /** The store's clock (monotonic `now()`; a reading that steps back counts as no time passing). @default systemClock */
  clock: Clock;
}

/** The memory store: a {@link RateLimitStore} plus introspection for tests and metrics. */
export interface MemoryStore extends RateLimitStore {
  /** Keys currently held (limits and gates). */
  readonly size: number;
  /** Forgets every key. */
  clear(): void;
}

/** Defaults of {@link memoryStore}. */
export const memoryStoreDefaults: MemoryStoreOptions = {
  maxKeys: 100_000,
  idleMs: 3_600_000,
  clock: systemClock,
};

/** Previous-generation keys inspected for dropping on every call. */
const SWEEP = 2;
/** Namespace of gate keys, so a gate never collides with a limit of the same key. */
const GATE = '\u0000gate\u0000';

/**
 * `[expiresAt, ...state]` as an array literal, so V8 keeps the numbers unboxed in one double array
 * (a spread would box each number: about 300 instead of about 170 heap bytes per key, key included).
 */
function pack(expiresAt: number, state: readonly number[]): number[] {
  switch (state.length) {
    case 1:
      return [expiresAt, state[0]!];
    case 2:
      return [expiresAt, state[0]!, state[1]!];
    case 3:
      return [expiresAt, state[0]!, state[1]!, state[2]!];
    default:
      return [expiresAt].concat(state);
  }
}

/** Creates a bounded in-memory store (see the module doc for the eviction rules). */
export function memoryStore(options?: Partial<MemoryStoreOptions>): MemoryStore {
  const { maxKeys, idleMs, clock } = withDefaults(memoryStoreDefaults, options);
  if (positiveInteger('maxKeys', maxKeys) < 2) invalid('maxKeys', 'an integer of at least 2', maxKeys);
  positive('idleMs', idleMs);
  const generation = Math.floor(maxKeys / 2);
  const steady = steadyNow(clock);
  let current = new Map<string, number[]>();
  let previous = new Map<string, number[]>();
  let sweeper = previous.entries();
  let rotatedAt = steady();

  const rotate = (now: number) => {
    previous = current;
    current = new Map();
    sweeper = previous.entries();
    rotatedAt = now;
  };
  const tick = (now: number) => {
    if (now - rotatedAt >= idleMs) rotate(now);
    for (let i = 0; i < SWEEP; i++) {
      const next = sweeper.next();
      if (next.done) break;
      if (now >= next.value[1][0]!) previous.delete(next.value[0]);
    }
  };
  const read = (key: string, now: number): number[] | undefined => {
    tick(now);
    return current.get(key) ?? previous.get(key);
  };
  const write = (key: string, entry: number[], now: number) => {
    if (!current.has(key)) {
      previous.delete(key);
      if (current.size >= generation) rotate(now);
    }
    current.set(key, entry);
  };

  return {
    get size() {
      return current.size + previous.size;
    },
    clear: () => {
      current.clear();
      previous.clear();
    },
    async take(key: string, limit: StoreLimit, cost: number): Promise<Decision> {
      const now = steady();
      const entry = read(key, now);
      const result = algorithms[limit.algorithm].take(entry?.slice(1), limit, now, cost);
      write(key, pack(now + result.expiresInMs, result.state), now);
      return result.decision;
    },
    async reserve(key: string, limit: StoreLimit, cost: number): Promise<{ waitMs: number }> {
      const algorithm = algorithms[limit.algorithm];
      if (!algorithm.reserve) throw new UnsupportedAlgorithmError(limit.algorithm, 'reserve');
      const now = steady();
      const result = algorithm.reserve(read(key, now)?.slice(1), limit, now, cost);
      write(key, pack(now + result.expiresInMs, result.state), now);
      return { waitMs: result.waitMs };
    },
    async holdGate(key: string, ms: number): Promise<number> {
      const now = steady();
      const wanted = Math.max(0, ms);
      const closedUntil = read(GATE + key, now)?.[0] ?? now;
      // Return `wanted` itself when it extends the gate: `now + ms − now` is not always `ms` in floats.
      const extending = now + wanted >= closedUntil;
      write(GATE + key, [extending ? now + wanted : closedUntil], now);
      return extending ? wanted : closedUntil - now;
    },
    async gateWait(key: string): Promise<number> {
      const now = steady();
      return Math.max(0, (read(GATE + key, now)?.[0] ?? now) - now);
    },
  };
}
