import type { Clock } from '../core/clock.js';
import { Generations } from '../core/generations.js';

/** Counters of one key. */
export interface KeyMetrics {
  key: string;
  /** Requests the algorithm admitted. */
  allowed: number;
  /** Requests answered 429. */
  refused: number;
  /** Requests the algorithm refused but `mode: 'observe'` let through. */
  wouldRefuse: number;
}

/** A snapshot from `limiter.metrics()`. */
export interface RateLimitMetrics {
  allowed: number;
  refused: number;
  wouldRefuse: number;
  /** Store calls that failed or timed out (answered open or closed as configured). */
  storeErrors: number;
  /**
   * Distinct keys refused (or that would have been, in observe mode) within the last
   * `metricsWindowMs`: the alert signal — many keys refused at once usually means the limit is wrong,
   * one key refused usually means one abusive client.
   */
  refusedKeys: number;
  /** Per-key counters of the most recently seen keys (bounded), most refused first. */
  keys: KeyMetrics[];
}

/** The outcome kinds metrics count. */
export type MetricKind = 'allowed' | 'refused' | 'wouldRefuse';

/** Bounded metrics of one limiter. */
export class MetricsRecorder {
  #totals = { allowed: 0, refused: 0, wouldRefuse: 0, storeErrors: 0 };
  #keys: Generations<KeyMetrics>;
  /**
   * When each key was last refused, least recently refused first (a refusal moves its key last):
   * past `maxKeys` the oldest goes, so the count levels off at `maxKeys` and never drops by a
   * generation.
   */
  readonly #refusedAt = new Map<string, number>();

  /**
   * @param maxKeys most keys tracked in each map. @param windowMs the `refusedKeys` window.
   * @param clock when refusals happen (read only for refusals and snapshots).
   */
  readonly #maxKeys: number;

  constructor(
    maxKeys: number,
    readonly windowMs: number,
    readonly clock: Clock,
  ) {
    this.#maxKeys = maxKeys;
    const generation = Math.max(1, Math.floor(maxKeys / 2));
    this.#keys = new Generations(generation);
  }

  /** Counts one decision for `key`, now. */
  record(key: string, kind: MetricKind): void {
    this.#totals[kind]++;
    let entry = this.#keys.get(key);
    if (!entry) {
      entry = { key, allowed: 0, refused: 0, wouldRefuse: 0 };
      this.#keys.set(key, entry);
    }
    entry[kind]++;
    if (kind !== 'allowed') {
      const refusedAt = this.#refusedAt;
      refusedAt.delete(key);
      refusedAt.set(key, this.clock.now());
      if (refusedAt.size > this.#maxKeys) refusedAt.delete(refusedAt.keys().next().value as string);
    }
  }

  /** Counts one failed or timed-out store call. */
  storeError(): void {
    this.#totals.storeErrors++;
  }

  /** The counters as of now. */
  snapshot(): RateLimitMetrics {
    const now = this.clock.now();
    let refusedKeys = 0;
    for (const at of this.#refusedAt.values()) if (now - at < this.windowMs) refusedKeys++;
    const keys = [...this.#keys.entries()].map(([, entry]) => ({ ...entry }));
    keys.sort((a, b) => b.refused + b.wouldRefuse - (a.refused + a.wouldRefuse));
    // Two generations of half the keys each hold one more than `maxKeys` when it is odd: never reported.
    return { ...this.#totals, refusedKeys, keys: keys.slice(0, this.#maxKeys) };
  }
}
