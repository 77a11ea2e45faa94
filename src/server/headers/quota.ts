import type { StoreLimit } from '../../stores/store.js';

const EPSILON = 1e-9;

/**
 * The policy as whole numbers for headers: `w` = the smallest whole number of seconds (≥ 1) that
 * holds the window — for a bucket, the smallest `w` with `rate · w ≥ burst` — and `q` = the units
 * admitted per `w` at the sustained rate, rounded down. "200/s burst 20" is `q=200;w=1`; "100 per
 * minute" is `q=100;w=60`; a 1.5 s window of 3 is `q=4;w=2` (a sub-second or fractional window is
 * stated as its rate over whole seconds).
 */
export function quotaOf(limit: StoreLimit): { q: number; w: number } {
  const w = Math.max(1, Math.ceil(limit.windowMs / 1000 - EPSILON));
  return { q: Math.floor((limit.limit * w * 1000) / limit.windowMs + EPSILON), w };
}

/**
 * Whole units of a limit, rounded down: the drafts' limit fields are Integers, and a fractional
 * burst (`rate: 2.5` gives 2.5) admits 2 requests at once.
 */
export function wholeUnits(units: number): number {
  return Math.floor(units + EPSILON);
}

/** Whole seconds, rounded up, of a duration in ms (never negative). */
export function seconds(ms: number): number {
  return Math.max(0, Math.ceil(ms / 1000 - EPSILON));
}
