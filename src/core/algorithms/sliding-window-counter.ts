/**
 * Sliding window counter (the Cloudflare/nginx approximation).
 *
 * Semantics (mirrored by the Redis store's Lua): windows aligned as for the fixed window; state
 * `[start, current, previous]` where `previous` is the count of the window just before `start`
 * (0 when that window was not the previous one).
 * - `estimate = previous · (1 − elapsed / windowMs) + current`, with `elapsed = now − start`;
 * - allowed iff `estimate + cost ≤ limit`; a refusal adds nothing;
 * - `remaining = floor(limit − estimate)` after the decision; `resetMs` = ms until the estimate is
 *   0 again (the quota whole): the end of the next window when `current > 0` (it weighs on the
 *   estimate through that window), the end of this one when only `previous > 0`, else 0;
 * - `retryAfterMs` = the smallest whole ms after which the estimate admits `cost` (the previous
 *   window's weight decays, and the window may roll over).
 *
 * Bound: within each aligned window at most `limit` is admitted (the estimate is ≥ `current`), so
 * over any interval of t ms admitted cost ≤ `limit · (⌈t / windowMs⌉ + 1)`; in practice the
 * weighting smooths the fixed window's boundary hole, it does not remove it in the worst case.
 */
import type { StoreLimit } from '../../stores/store.js';
import { checkCost } from './cost.js';
import { EPSILON, exactWait } from './exact-wait.js';
import { type Algorithm, type AlgorithmState, remainingOf } from './types.js';

/** The counts as seen at `now`, rolled over to `now`'s window. */
function counts(state: AlgorithmState, limit: StoreLimit, now: number): [number, number, number] {
  const index = Math.floor(now / limit.windowMs);
  const start = index * limit.windowMs;
  if (state?.length !== 3) return [start, 0, 0];
  const [stored, current, previous] = state as [number, number, number];
  if (stored === start) return [start, current, previous];
  // The window before, written as its start was (`index · windowMs`): `start − windowMs` can
  // differ from it in the last bit when the window is not a whole number of ms.
  if (stored === (index - 1) * limit.windowMs) return [start, 0, current];
  return [start, 0, 0];
}

function estimate(state: AlgorithmState, limit: StoreLimit, now: number): number {
  const [start, current, previous] = counts(state, limit, now);
  return previous * (1 - (now - start) / limit.windowMs) + current;
}

function estimatedWait(state: AlgorithmState, limit: StoreLimit, now: number, cost: number): number {
  const [start, current, previous] = counts(state, limit, now);
  const room = limit.limit - cost - current;
  const toEnd = start + limit.windowMs - now;
  if (room >= 0 && previous > 0) {
    const within = limit.windowMs * (1 - room / previous) - (now - start);
    if (within < toEnd) return within;
  }
  const next = current > 0 ? limit.windowMs * (1 - (limit.limit - cost) / current) : 0;
  return toEnd + next;
}

/** The sliding-window-counter algorithm. */
export const slidingWindowCounter: Algorithm = {
  take(state, limit, now, cost) {
    checkCost(cost, limit.limit);
    const [start, current, previous] = counts(state, limit, now);
    const seen = estimate(state, limit, now);
    const allowed = seen + cost <= limit.limit + EPSILON;
    const next = [start, allowed ? current + cost : current, previous];
    const retryAfterMs = allowed
      ? 0
      : exactWait(
          estimatedWait(state, limit, now, cost),
          (d) => estimate(next, limit, now + d) + cost <= limit.limit + EPSILON,
        );
    const [, counted, prior] = next as [number, number, number];
    const windowsLeft = counted > 0 ? 2 : prior > 0 ? 1 : 0;
    const resetMs =
      windowsLeft === 0 ? 0 : Math.max(0, Math.ceil(start + windowsLeft * limit.windowMs - now - EPSILON));
    return {
      decision: {
        allowed,
        limit: limit.limit,
        remaining: remainingOf(limit.limit, allowed ? seen + cost : seen),
        resetMs,
        retryAfterMs,
      },
      state: next,
      // Where the state equals a missing key's (both counts rolled out).
      expiresInMs: Math.max(1, resetMs),
    };
  },
};
