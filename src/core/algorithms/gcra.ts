/**
 * GCRA (generic cell rate algorithm), TAT-based.
 *
 * Semantics (mirrored by the Redis store's Lua), with emission interval `T = windowMs / limit` and
 * burst tolerance `windowMs`, state `[tat]` (theoretical arrival time; a fresh key has `tat = now`):
 * - `newTat = max(tat, now) + T · cost`;
 * - allowed iff `newTat − now ≤ windowMs`; then `tat = newTat`, else the state is unchanged;
 * - `remaining = floor((windowMs − (newTat − now)) / T)` when allowed, computed from the unchanged
 *   `tat` (as `max(tat, now)`) when refused;
 * - `retryAfterMs = newTat − now − windowMs` when refused, rounded up to a whole ms;
 * - `resetMs = tat − now` (of the stored tat, ≥ 0), rounded up: ms until the full burst is back.
 *
 * Bound: over any interval of t ms, admitted cost ≤ `limit + limit · t / windowMs`.
 */
import type { StoreLimit } from '../../stores/store.js';
import { checkCost } from './cost.js';
import { EPSILON, exactWait } from './exact-wait.js';
import { type Algorithm, type AlgorithmState, type InPlaceTake, takeViaInPlace } from './types.js';

function tatOf(state: AlgorithmState, now: number): number {
  return state && state.length === 1 ? Math.max(state[0]!, now) : now;
}

function remainingAt(base: number, now: number, limit: StoreLimit): number {
  const interval = limit.windowMs / limit.limit;
  return Math.max(0, Math.floor((limit.windowMs - (base - now)) / interval + EPSILON));
}

const inPlace: InPlaceTake = {
  width: 1,
  take(state, at, fresh, limit, now, cost) {
    checkCost(cost, limit.limit);
    const interval = limit.windowMs / limit.limit;
    const held = fresh ? now : state[at]!;
    const base = Math.max(held, now);
    const newTat = base + interval * cost;
    const allowed = newTat - now <= limit.windowMs + EPSILON;
    const tat = allowed ? newTat : base;
    state[at] = tat;
    return {
      allowed,
      limit: limit.limit,
      remaining: remainingAt(tat, now, limit),
      resetMs: Math.max(0, Math.ceil(tat - now - EPSILON)),
      retryAfterMs: allowed
        ? 0
        : exactWait(newTat - now - limit.windowMs, (d) => newTat - (now + d) <= limit.windowMs + EPSILON),
    };
  },
};

/** The GCRA algorithm. */
export const gcra: Algorithm = {
  inPlace,
  take: takeViaInPlace(inPlace),
  reserve(state, limit, now, cost) {
    checkCost(cost, limit.limit);
    const newTat = tatOf(state, now) + (limit.windowMs / limit.limit) * cost;
    const waitMs = exactWait(
      newTat - now - limit.windowMs,
      (d) => newTat - (now + d) <= limit.windowMs + EPSILON,
    );
    return { waitMs, state: [newTat], expiresInMs: Math.max(0, Math.ceil(newTat - now)) };
  },
};
