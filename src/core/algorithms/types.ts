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

/** A pure limiting algorithm: state + now + cost → decision. No I/O, no clock of its own. */
export interface Algorithm {
  /** Take `cost` units at `now` if they are there, else refuse with the exact wait. */
  take(state: AlgorithmState, limit: StoreLimit, now: number, cost: number): AlgorithmTake;
  /** Book `cost` units at `now` even if not there yet (bucket algorithms only). */
  reserve?(state: AlgorithmState, limit: StoreLimit, now: number, cost: number): AlgorithmReserve;
}
