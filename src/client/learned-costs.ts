/**
 * Learned costs: what one call costs in a unit the caller does not estimate (`tokens`, when
 * `cost(request)` gives none), read from how that window's `remaining` moves between answers.
 *
 * Between two readings A and B of one window, B sent after A (its request mark is higher), the
 * server counted `rA − rB` units plus what it gave back meanwhile, for the `markB − markA` calls
 * sent between them. What it gave back is the refill the reset states: a window of `limit` with
 * `remaining` left and `reset` ms to go gives `(limit − remaining) / reset` units back per ms at
 * most (a bucket refilling to full by the reset; a fixed window gives nothing back before it, so
 * the sample is high: the safe side), and never more than it lacked of full. The first reading has
 * nothing before it: the server counted `limit − remaining` for the calls sent up to it that were
 * still unanswered (an earlier answer without this window: it was not reported then), and perhaps
 * more (another client, a window already in use): a high sample too. A refused call's reading
 * samples nothing, and the next sample starts from it.
 *
 * The cost is the median of the last {@link SAMPLES} samples, so a window boundary, another
 * client's calls or answers that overtook each other (outliers) do not move it. A settled cost
 * (the hook that reads the answer's usage) is a sample of its own.
 */
import type { RateLimitPolicy } from '../signals/signal.js';

/** Samples kept per unit. */
const SAMPLES = 9;

/** One reading of a window, as a sample's start. */
interface Reading {
  mark: number;
  remaining: number;
  at: number;
  /** Units the window gives back per ms at most, from its reset (0 when unknown). */
  refillPerMs: number;
  /** Units it can give back at all: what it lacked of full (`limit − remaining`). */
  lack: number;
}

interface UnitState {
  last: Reading | null;
  samples: number[];
  cost: number | null;
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

/** The learned cost per call of every unit one key's server reports. */
export class LearnedCosts {
  readonly #units = new Map<string, UnitState>();

  /** Units one call costs in `unit`, or `null` while nothing has been learned. */
  cost(unit: string): number | null {
    return this.#units.get(unit)?.cost ?? null;
  }

  /** Every unit's learned cost. */
  costs(): Record<string, number> {
    const costs: Record<string, number> = {};
    for (const [unit, state] of this.#units) if (state.cost !== null) costs[unit] = state.cost;
    return costs;
  }

  /**
   * A reading of `window` from an answer to the call whose cumulative request mark is `mark`
   * (calls sent up to and including it), arrived at `at` (monotonic ms), with `inFlight` calls
   * unanswered until it came (it included). A `refused` call's reading samples nothing (its call
   * cost nothing), but the next sample starts from it, so it is not spread over the refused call.
   */
  observe(window: RateLimitPolicy, mark: number, at: number, inFlight = mark, refused = false): void {
    const remaining = window.remaining;
    if (remaining === null) return;
    const state = this.#state(window.unit);
    const limit = window.quota;
    const lack = limit === null ? 0 : Math.max(0, limit - remaining);
    const refillPerMs = window.resetInMs !== null && window.resetInMs > 0 ? lack / window.resetInMs : 0;
    const reading: Reading = { mark, remaining, at, refillPerMs, lack };
    const last = state.last;
    if (last === null) {
      // Only the calls still unanswered can be in the first count: one answered before it did not
      // report this window (it may have appeared since), so it is not spread over them.
      const calls = Math.min(mark, inFlight);
      if (!refused && lack > 0 && calls > 0) this.#sample(state, lack / calls);
      state.last = reading;
      return;
    }
    // An answer that overtook a later one reads an older count: it measures nothing forward.
    if (mark <= last.mark) return;
    // The refill stops at full: a window gives back at most what it lacked.
    const refill = Math.min(last.lack, last.refillPerMs * Math.max(0, at - last.at));
    const counted = last.remaining - remaining + refill;
    if (!refused && counted > 0) this.#sample(state, counted / (mark - last.mark));
    state.last = reading;
  }

  /** The units one call was settled at (its answer's usage). */
  settle(unit: string, units: number): void {
    this.#sample(this.#state(unit), units);
  }

  #state(unit: string): UnitState {
    let state = this.#units.get(unit);
    if (!state) {
      state = { last: null, samples: [], cost: null };
      this.#units.set(unit, state);
    }
    return state;
  }

  #sample(state: UnitState, units: number): void {
    if (!(Number.isFinite(units) && units > 0)) return;
    state.samples.push(units);
    if (state.samples.length > SAMPLES) state.samples.shift();
    state.cost = median(state.samples);
  }
}
