import type { Decision, StoreLimit } from '../../stores/store.js';

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

/**
 * An algorithm's `take` over state held in place, for stores that keep state numbers in a
 * `Float64Array` (the memory store's hot path): no arrays, no result objects.
 */
export interface InPlaceTake {
  /** State numbers per key (the length of the algorithm's state). */
  readonly width: number;
  /**
   * Decides at `now` on the state at `state[at … at + width)` (`fresh`: a new key, whose state this
   * sets), updates it there and writes the decision into `out` (whose `limit` the caller set); returns
   * `expiresInMs`. Throws
   * before changing anything when the cost is invalid.
   */
  take(
    state: Float64Array,
    at: number,
    fresh: boolean,
    limit: StoreLimit,
    now: number,
    cost: number,
    out: Decision,
  ): number;
}

/** A pure limiting algorithm: state + now + cost → decision. No I/O, no clock of its own. */
export interface Algorithm {
  /** Take `cost` units at `now` if they are there, else refuse with the exact wait. */
  take(state: AlgorithmState, limit: StoreLimit, now: number, cost: number): AlgorithmTake;
  /** The same `take` over state held in place (when the algorithm has one; `take` is then built on it). */
  inPlace?: InPlaceTake;
  /** Book `cost` units at `now` even if not there yet (bucket algorithms only). */
  reserve?(state: AlgorithmState, limit: StoreLimit, now: number, cost: number): AlgorithmReserve;
}

/** A decision for an in-place take to fill in (refused, nothing left, until it says otherwise). */
export function blankDecision(limit: number): Decision {
  return { allowed: false, limit, remaining: 0, resetMs: 0, retryAfterMs: 0 };
}

/** The `take` of an algorithm that decides {@link InPlaceTake in place}: the one decision, over a copy. */
export function takeViaInPlace(inPlace: InPlaceTake): Algorithm['take'] {
  return (state, limit, now, cost) => {
    const fresh = !(state && state.length === inPlace.width);
    const held = fresh ? new Float64Array(inPlace.width) : Float64Array.from(state);
    const decision = blankDecision(limit.limit);
    const expiresInMs = inPlace.take(held, 0, fresh, limit, now, cost, decision);
    return { decision, state: Array.from(held), expiresInMs };
  };
}
