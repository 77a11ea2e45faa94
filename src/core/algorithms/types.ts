import type { Decision, StoreLimit } from '../../stores/store.js';
import { EPSILON } from './exact-wait.js';

/**
 * An algorithm's per-key state: a short array of numbers (two for most algorithms), so a store
 * keeps it compactly and the Redis store can mirror it field by field. `undefined` is a fresh key.
 */
export type AlgorithmState = readonly number[] | undefined;

/** Outcome of an algorithm's `take`. */
export interface AlgorithmTake {
  decision: Decision;
  /** State to store (unchanged contents when refused, except for lazy refill or window roll-over). */
  state: number[];
  /** ms after which the state is equivalent to a fresh key, so a store may drop it. */
  expiresInMs: number;
}

/** Outcome of an algorithm's `reserve`. */
export interface AlgorithmReserve {
  /** Exact ms until the booked units are really there. */
  waitMs: number;
  state: number[];
  expiresInMs: number;
}

/** Outcome of an algorithm's `giveBack`. */
export interface AlgorithmGiveBack {
  state: number[];
  expiresInMs: number;
}

/**
 * An algorithm's `take` over state held in place, for stores that keep state numbers in a
 * `Float64Array` (the memory store's hot path): no arrays, no result objects but the decision.
 */
export interface InPlaceTake {
  /** State numbers per key (the length of the algorithm's state). */
  readonly width: number;
  /**
   * Decides at `now` on the state at `state[at … at + width)` (`fresh`: a new key, whose state this
   * sets), updates it there and returns the decision; the state is equivalent to a fresh key's
   * after the decision's `resetMs`, so a store may drop it then. Throws before changing anything
   * when the cost is invalid.
   */
  take(
    state: Float64Array,
    at: number,
    fresh: boolean,
    limit: StoreLimit,
    now: number,
    cost: number,
  ): Decision;
}

/** A pure limiting algorithm: state + now + cost → decision. No I/O, no clock of its own. */
export interface Algorithm {
  /** Take `cost` units at `now` if they are there, else refuse with the exact wait. */
  take(state: AlgorithmState, limit: StoreLimit, now: number, cost: number): AlgorithmTake;
  /** The same `take` over state held in place (when the algorithm has one; `take` is then built on it). */
  inPlace?: InPlaceTake;
  /** Book `cost` units at `now` even if not there yet (bucket algorithms only). */
  reserve?(state: AlgorithmState, limit: StoreLimit, now: number, cost: number): AlgorithmReserve;
  /**
   * Gives back `cost` units `reserve` booked for a call that was never sent, at most back to a
   * fresh key's state (bucket algorithms only, with `reserve`).
   */
  giveBack?(state: AlgorithmState, limit: StoreLimit, now: number, cost: number): AlgorithmGiveBack;
}

/** The `take` of an algorithm that decides {@link InPlaceTake in place}: the one decision, over a copy. */
export function takeViaInPlace(inPlace: InPlaceTake): Algorithm['take'] {
  return (state, limit, now, cost) => {
    const fresh = !(state && state.length === inPlace.width);
    const held = fresh ? new Float64Array(inPlace.width) : Float64Array.from(state);
    const decision = inPlace.take(held, 0, fresh, limit, now, cost);
    return { decision, state: Array.from(held), expiresInMs: decision.resetMs };
  };
}

/**
 * Whole units left of a window's `limit` once `used` are spent (never below 0; the slack keeps a
 * float sum such as 0.1 + 0.2 from reading one short).
 */
export function remainingOf(limit: number, used: number): number {
  return Math.max(0, Math.floor(limit - used + EPSILON));
}
