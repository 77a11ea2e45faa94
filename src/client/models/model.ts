/**
 * What every server model shares: the observation an answer gives it, and the three pure
 * functions it is made of. A model is one hypothesis about how a server counts one window
 * (requests per second, per minute, a daily cap); the key's pacer keeps one per window the
 * server reports and lets the binding one decide.
 */
import type { RateLimitPolicy } from '../../signals/signal.js';

/** Where a model's figures came from, for `stats()`. */
export type RateSource = 'configured' | 'policy' | 'estimate' | 'reset' | 'window' | 'refusals';

/** What a model knows, for `stats()`. */
export interface ModelSnapshot {
  /** Units per second on average, or `null` while unknown (unpaced). */
  rate: number | null;
  /** Units that may go at once (a bucket's capacity, a window's limit), or `null` while unknown. */
  burst: number | null;
  source: RateSource | null;
  /** Units the model believes may go now, or `null` while unknown. */
  tokens: number | null;
}

/** One answered (or failed) attempt, as a model sees it. Times are monotonic ms. */
export interface Observation {
  /** When the answer arrived. */
  at: number;
  /** When the answered send left. */
  sentAt: number;
  /** Cumulative units sent up to and including the answered send. */
  mark: number;
  /** Units of this key still in flight, not counting the answered send. */
  inFlight: number;
  /** Units still in flight before the answered send was released (`inFlight + cost`). */
  inFlightBefore: number;
  /** Units the answered send cost. */
  cost: number;
  /** That cost was stated (the `cost` option's figure for this unit), not learned. */
  costStated: boolean;
  /** What the attempt meant: the server answered, refused for the rate, or gave no usable answer. */
  outcome: 'answered' | 'limited' | 'failed';
  /** The server's retry hint, when it gave one. */
  retryAfterMs: number | null;
  /** This model's window as the answer reported it; `null` when the answer reported none. */
  window: RateLimitPolicy | null;
  /** The sustained rate (units/s) the server states for this window, when it states one. */
  statedRate: number | null;
  /** The window's `quota` is an IETF policy quota (`q` per `w`: a rate), not the window's limit. */
  statedPolicy: boolean;
  /**
   * Calls the server counted or may count in this window that are in no mark of its unit: sent
   * before its window appeared or its cost was known (booked at 0), the answered one included.
   */
  unmarked: number;
}

/**
 * A server model: functions over a state `S` that `sent` and `observe` update in place and return
 * (the steady answer of a busy key changes a few numbers: building a new state per answer per
 * window cost more than the pacing itself). A caller keeps only the state returned, as the pacer
 * does; `delay`, `snapshot` and `falsifiedAt` never change it.
 */
export interface ServerModel<S> {
  /** ms from `now` until `cost` more units may go: 0 = now, `Infinity` = only an answer can tell. */
  delay(state: S, cost: number, now: number, inFlight: number): number;
  /** The state after `cost` units were sent at `now` (`mark`: cumulative units after this send), updated in place. */
  sent(state: S, cost: number, now: number, mark: number, inFlightBefore: number): S;
  /** The state after an answer (or a failed attempt), updated in place. */
  observe(state: S, observation: Observation): S;
  /** What the model knows at `now`. */
  snapshot(state: S, now: number, inFlight: number): ModelSnapshot;
  /**
   * When the server last behaved in a way this model cannot explain (monotonic ms), `Infinity` when
   * its behaviour rules the model out, or `null`.
   */
  falsifiedAt(state: S): number | null;
}

/** Floating-point slack when comparing unit counts. */
export const EPSILON = 1e-9;

/**
 * True when `window`, as an answer reported it, had room for a send of `cost` of its units: its
 * `remaining` at least that cost (and at least one unit). A refusal while the window had room is
 * another limit's; one with less left than the call needed (20 tokens left for a call of 130) is
 * this window's own.
 */
export function hadRoomFor(window: RateLimitPolicy | null, cost: number): boolean {
  return window !== null && window.remaining !== null && window.remaining >= Math.max(1, cost) - EPSILON;
}
