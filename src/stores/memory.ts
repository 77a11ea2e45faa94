/**
 * The in-process store: every algorithm, bounded memory.
 *
 * Each key holds `[expiresAt, ...algorithmState]` (three numbers for most algorithms) in a
 * `Float64Array` slab of its generation, found through a `Map` from key to slot. Keys live in two
 * generations, as in hashlru/quick-lru — an approximate least-recently-used cache with O(1) work per call (evicting from the front of one big `Map`
 * would rescan its deleted slots on every call):
 * - new and touched keys go to the current generation; when it holds `maxKeys / 2` keys it
 *   becomes the previous generation and the old previous one is dropped, so at most `maxKeys`
 *   keys are ever held, and a key touched within the last `maxKeys / 2` distinct keys survives;
 * - the generations also rotate every `idleMs` (on a call), so a key untouched for `2 · idleMs` is
 *   gone once its state is fresh again (a key that still limits — a spent window, a reservation
 *   owed — is carried over while the generation has room);
 * - on every call a couple of previous-generation keys whose state is back to fresh (`expiresAt`
 *   passed, so dropping changes nothing) are dropped early.
 * Gates live in the same maps under a separate namespace. Algorithms with an in-place `take`
 * (token bucket, GCRA, fixed window) decide on the slab entry itself: a decision allocates only its answer.
 */

import { algorithms } from '../core/algorithms/index.js';
import type { Algorithm, InPlaceTake } from '../core/algorithms/types.js';
import { type Clock, steadyNow, systemClock } from '../core/clock.js';
import { clockOption, invalid, positive, positiveInteger, withDefaults } from '../core/validate.js';
import { UnsupportedAlgorithmError } from '../errors.js';
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
/** Widest entry (`expiresAt` + state numbers) kept in a slab; wider ones (sliding log) are arrays. */
const SLAB_WIDTH = 4;
/** Where an entry is decided before it moves into the current generation. */
const scratch = new Float64Array(SLAB_WIDTH);
/** Copies `n` numbers from `source[from…]` to `target[to…]` (no views allocated). */
function copy(source: Float64Array, from: number, target: Float64Array, to: number, n: number): void {
  for (let i = 0; i < n; i++) target[to + i] = source[from + i]!;
}
/** Reused state views by length, so reading a slab entry allocates nothing (algorithms do not keep them). */
const views: number[][] = Array.from({ length: SLAB_WIDTH }, (_, n) => new Array<number>(n).fill(0));

/**
 * One generation: a `Map` from key to a reference into a `Float64Array` slab per entry width
 * (`slot · 4 + width − 1`, a small integer V8 keeps unboxed), so an entry costs its map slot and
 * 8 bytes per number, no object of its own. Entries wider than {@link SLAB_WIDTH} are arrays.
 */
class Generation {
  readonly index = new Map<string, number | number[]>();
  readonly #slabs: Float64Array[] = [];
  readonly #used: number[] = [];
  /** Slab entries given back, per width, for reuse: a key that changes width keeps no old slot. */
  readonly #free: number[][] = [];

  /** @param generation most keys this generation will hold (slabs grow up to it, then as needed). */
  constructor(readonly generation: number) {}

  /** The entry's `expiresAt`. */
  expiresAt(ref: number | number[]): number {
    if (typeof ref !== 'number') return ref[0]!;
    return this.#slabs[(ref & 3) + 1]![(ref >>> 2) * ((ref & 3) + 1)]!;
  }

  /** The entry's state (a reused view for slab entries: read it before the next call). */
  state(ref: number | number[]): readonly number[] {
    if (typeof ref !== 'number') return ref.slice(1);
    const width = (ref & 3) + 1;
    const slab = this.#slabs[width]!;
    const at = (ref >>> 2) * width;
    const view = views[width - 1]!;
    for (let i = 1; i < width; i++) view[i - 1] = slab[at + i]!;
    return view;
  }

  /** Writes the entry of `key`, over its old slot when it has one of the same width. */
  write(key: string, old: number | number[] | undefined, expiresAt: number, state: readonly number[]): void {
    const width = state.length + 1;
    if (width > SLAB_WIDTH) {
      this.#release(old);
      this.index.set(key, [expiresAt].concat(state));
      return;
    }
    const ref = typeof old === 'number' && (old & 3) + 1 === width ? old : this.add(key, width, old);
    const slab = this.#slabs[width]!;
    const at = (ref >>> 2) * width;
    slab[at] = expiresAt;
    for (let i = 1; i < width; i++) slab[at + i] = state[i - 1]!;
  }

  /** The slab holding the slab entry `ref`. */
  slab(ref: number): Float64Array {
    return this.#slabs[(ref & 3) + 1]!;
  }

  /** Where the slab entry `ref` starts in its {@link slab} (its `expiresAt`; the state follows). */
  offset(ref: number): number {
    return (ref >>> 2) * ((ref & 3) + 1);
  }

  /**
   * A new slab entry of `width` numbers for `key` (contents to be written); `old`, the key's entry
   * in this generation until now (of another width), is given back.
   */
  add(key: string, width: number, old?: number | number[]): number {
    this.#release(old);
    const ref = this.#allocate(width);
    this.index.set(key, ref);
    return ref;
  }

  /** Gives a slab entry of this generation back for reuse (an array entry is just dropped). */
  #release(ref: number | number[] | undefined): void {
    if (typeof ref !== 'number') return;
    const width = (ref & 3) + 1;
    const free = this.#free[width] ?? [];
    free.push(ref);
    this.#free[width] = free;
  }

  #allocate(width: number): number {
    const reused = this.#free[width]?.pop();
    if (reused !== undefined) return reused;
    const slot = this.#used[width] ?? 0;
    let slab = this.#slabs[width];
    if (!slab || (slot + 1) * width > slab.length) {
      const slots = Math.max(slot + 1, Math.min(Math.max(64, slot * 2), this.generation));
      const grown = new Float64Array(slots * width);
      if (slab) grown.set(slab);
      this.#slabs[width] = slab = grown;
    }
    this.#used[width] = slot + 1;
    return slot * 4 + width - 1;
  }
}

/** Moves the entry `ref` of `key` from one generation into another (which does not hold the key). */
function carry(from: Generation, to: Generation, key: string, ref: number | number[]): void {
  if (typeof ref !== 'number') {
    to.index.set(key, ref);
    return;
  }
  const width = (ref & 3) + 1;
  const moved = to.add(key, width);
  copy(from.slab(ref), from.offset(ref), to.slab(moved), to.offset(moved), width);
}

/** Creates a bounded in-memory store (see the module doc for the eviction rules). */
export function memoryStore(options?: Partial<MemoryStoreOptions>): MemoryStore {
  const { maxKeys, idleMs, clock } = withDefaults(memoryStoreDefaults, options);
  if (positiveInteger('maxKeys', maxKeys) < 2) invalid('maxKeys', 'an integer of at least 2', maxKeys);
  positive('idleMs', idleMs);
  clockOption('clock', clock);
  const generation = Math.floor(maxKeys / 2);
  const steady = steadyNow(clock);
  let current = new Generation(generation);
  let previous = new Generation(generation);
  /** The previous generation's keys not yet inspected (`undefined`: none left, as while it is empty). */
  let sweeper: MapIterator<[string, number | number[]]> | undefined;
  let rotatedAt = steady();

  const rotate = (now: number) => {
    previous = current;
    current = new Generation(generation);
    sweeper = previous.index.entries();
    rotatedAt = now;
  };
  /**
   * The rotation of `idleMs`: as {@link rotate}, but the keys of the generation it drops whose
   * state still limits (`expiresAt` not passed: a spent window, a reservation owed) are carried into
   * the new previous generation while it has room, so idleness alone never brings a limited key
   * back fresh. (A full generation still rotates by size, dropping the least recently used.)
   */
  const rotateIdle = (now: number) => {
    const dropped = previous;
    rotate(now);
    // Keys whose state is fresh again take no room from the limited ones carried over.
    for (const [key, ref] of previous.index) if (now >= previous.expiresAt(ref)) previous.index.delete(key);
    for (const [key, ref] of dropped.index) {
      if (previous.index.size >= generation) break;
      if (now < dropped.expiresAt(ref) && !previous.index.has(key)) carry(dropped, previous, key, ref);
    }
  };
  const tick = (now: number) => {
    if (now - rotatedAt >= idleMs) rotateIdle(now);
    if (!sweeper) return;
    for (let i = 0; i < SWEEP; i++) {
      const next = sweeper.next();
      if (next.done) {
        sweeper = undefined; // swept through: nothing left to inspect until the next rotation
        return;
      }
      if (now >= previous.expiresAt(next.value[1])) previous.index.delete(next.value[0]);
    }
  };
  /** The state of `key` (`undefined` when fresh) and, for the write, its current-generation slot. */
  let found: number | number[] | undefined;
  const read = (key: string, now: number): readonly number[] | undefined => {
    tick(now);
    found = current.index.get(key);
    if (found !== undefined) return current.state(found);
    const old = previous.index.get(key);
    return old === undefined ? undefined : previous.state(old);
  };
  /** Writes `key` after {@link read} of the same key. */
  const write = (key: string, expiresAt: number, state: readonly number[], now: number) => {
    if (found === undefined) {
      previous.index.delete(key);
      if (current.index.size >= generation) rotate(now);
    }
    current.write(key, found, expiresAt, state);
  };

  /** When `key`'s gate opens (`now` when open); a gate entry is just its `expiresAt`. */
  const gateUntil = (key: string, now: number): number => {
    read(GATE + key, now);
    if (found !== undefined) return current.expiresAt(found);
    const old = previous.index.get(GATE + key);
    return old === undefined ? now : previous.expiresAt(old);
  };

  /**
   * {@link takeNow} of an algorithm deciding in place, for a key the current generation does not
   * hold in this width (a fresh key, one from the previous generation, or one an algorithm of
   * another width used): decided on a scratch copy that then moves into the current generation.
   */
  const takeMoving = (
    inPlace: InPlaceTake,
    key: string,
    limit: StoreLimit,
    cost: number,
    now: number,
    held: number | number[] | undefined,
  ): Decision => {
    const width = inPlace.width + 1;
    const from = held === undefined ? previous : current;
    const old = held ?? previous.index.get(key);
    const fresh = !(typeof old === 'number' && (old & 3) + 1 === width);
    if (!fresh) copy(from.slab(old), from.offset(old), scratch, 0, width);
    const decision = inPlace.take(scratch, 1, fresh, limit, now, cost);
    scratch[0] = now + decision.resetMs;
    if (held === undefined) {
      previous.index.delete(key);
      if (current.index.size >= generation) rotate(now);
    }
    const ref = current.add(key, width, held);
    copy(scratch, 0, current.slab(ref), current.offset(ref), width);
    return decision;
  };

  /** {@link takeNow} of an algorithm without an in-place take: over a copy of the state. */
  const takeCopied = (algorithm: Algorithm, key: string, limit: StoreLimit, cost: number): Decision => {
    const now = steady();
    const result = algorithm.take(read(key, now), limit, now, cost);
    write(key, now + result.expiresInMs, result.state, now);
    return result.decision;
  };

  /**
   * An algorithm deciding in place decides on the slab entry itself when the current generation
   * holds the key: one object per decision, the answer. (Kept small, with the rare cases out of
   * line, so V8 inlines the algorithm's arithmetic into it.)
   */
  function takeNow(key: string, limit: StoreLimit, cost: number): Decision {
    const algorithm = algorithms[limit.algorithm];
    const inPlace = algorithm.inPlace;
    if (inPlace === undefined) return takeCopied(algorithm, key, limit, cost);
    const now = steady();
    if (sweeper !== undefined || now - rotatedAt >= idleMs) tick(now);
    const held = current.index.get(key);
    if (typeof held !== 'number' || (held & 3) !== inPlace.width) {
      return takeMoving(inPlace, key, limit, cost, now, held);
    }
    const slab = current.slab(held);
    const at = current.offset(held);
    const decision = inPlace.take(slab, at + 1, false, limit, now, cost);
    slab[at] = now + decision.resetMs;
    return decision;
  }

  const store = {
    clear: () => {
      current = new Generation(generation);
      previous = new Generation(generation);
      sweeper = undefined;
    },
    takeNow,
    take(key: string, limit: StoreLimit, cost: number): Promise<Decision> {
      // Not `async`: a settled promise of the synchronous answer is cheaper than an async frame.
      try {
        return Promise.resolve(takeNow(key, limit, cost));
      } catch (error) {
        return Promise.reject(error);
      }
    },
    async reserve(key: string, limit: StoreLimit, cost: number): Promise<{ waitMs: number }> {
      const algorithm = algorithms[limit.algorithm];
      if (!algorithm.reserve) throw new UnsupportedAlgorithmError(limit.algorithm, 'reserve');
      const now = steady();
      const result = algorithm.reserve(read(key, now), limit, now, cost);
      write(key, now + result.expiresInMs, result.state, now);
      return { waitMs: result.waitMs };
    },
    async giveBack(key: string, limit: StoreLimit, cost: number): Promise<void> {
      const algorithm = algorithms[limit.algorithm];
      if (!algorithm.giveBack) throw new UnsupportedAlgorithmError(limit.algorithm, 'giveBack');
      const now = steady();
      const state = read(key, now);
      // A key held nowhere is fresh (full): nothing to give back to.
      if (state === undefined) return;
      const result = algorithm.giveBack(state, limit, now, cost);
      write(key, now + result.expiresInMs, result.state, now);
    },
    async holdGate(key: string, ms: number): Promise<number> {
      const now = steady();
      const wanted = Math.max(0, ms);
      const closedUntil = gateUntil(key, now);
      // Return `wanted` itself when it extends the gate: `now + ms − now` is not always `ms` in floats.
      const extending = now + wanted >= closedUntil;
      write(GATE + key, extending ? now + wanted : closedUntil, [], now);
      return extending ? wanted : closedUntil - now;
    },
    async gateWait(key: string): Promise<number> {
      const now = steady();
      return Math.max(0, gateUntil(key, now) - now);
    },
  };
  // Not a getter in the literal: an object literal with an accessor is kept in dictionary mode,
  // and every `store.takeNow` read would then be a generic lookup (about 90 of a decision's
  // 1,800–2,000 instructions, cachegrind).
  return Object.defineProperty(store, 'size', {
    get: () => current.index.size + previous.index.size,
    enumerable: true,
    configurable: true,
  }) as MemoryStore;
}
