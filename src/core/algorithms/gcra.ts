/**
 * GCRA (generic cell rate algorithm), TAT-based.
 *
 * Semantics (mirrored by the Redis store's Lua), with emission interval `T = windowMs / limit` and
 * burst tolerance `windowMs`, state `[tat]` (theoretical arrival time; a fresh key has `tat = now`):
 * - `newTat = max(tat, now) + T · cost`;
 * - allowed iff `newTat − now ≤ windowMs` (within the rounding of `tat`'s sums, see `slackMs`); then
 *   `tat = newTat`, else the state is unchanged;
 * - `remaining = floor((windowMs − (newTat − now)) / T)` when allowed, computed from the unchanged
 *   `tat` (as `max(tat, now)`) when refused;
 * - `retryAfterMs = newTat − now − windowMs` when refused, rounded up to a whole ms;
 * - `resetMs = tat − now` (of the stored tat, ≥ 0), rounded up: ms until the full burst is back;
 * - give-back (of units a reservation booked for a call never sent): `tat = max(now, tat − T · cost)`.
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

/**
 * Slack, in ms, when comparing a theoretical arrival time with `now + windowMs`: `tat` is a sum of
 * clock readings and intervals, each addition rounded to a step of its size (a double's 2⁻⁵² of
 * it): a burst of `limit` units taken one by one at a clock of hours (or Redis's epoch ms) lands
 * up to `limit` such steps past the exact sum, which a fixed slack of 1e-9 ms did not cover (the
 * burst's last unit was refused). `EPSILON` beside, for small clocks; never above half an interval.
 */
function slackMs(tat: number, limit: StoreLimit): number {
  // At most half an interval: never a whole unit more than the exact sum admits.
  const halfInterval = limit.windowMs / limit.limit / 2;
  return Math.min(halfInterval, EPSILON + (limit.limit + 1) * Math.abs(tat) * Number.EPSILON);
}

function remainingAt(base: number, now: number, limit: StoreLimit): number {
  const interval = limit.windowMs / limit.limit;
  const slack = slackMs(base, limit);
  return Math.max(0, Math.floor((limit.windowMs - (base - now) + slack) / interval));
}

const inPlace: InPlaceTake = {
  width: 1,
  take(state, at, fresh, limit, now, cost) {
    checkCost(cost, limit.limit);
    const interval = limit.windowMs / limit.limit;
    const held = fresh ? now : state[at]!;
    const base = Math.max(held, now);
    const newTat = base + interval * cost;
    const slack = slackMs(newTat, limit);
    const allowed = newTat - now <= limit.windowMs + slack;
    const tat = allowed ? newTat : base;
    state[at] = tat;
    return {
      allowed,
      limit: limit.limit,
      remaining: remainingAt(tat, now, limit),
      resetMs: Math.max(0, Math.ceil(tat - now - slack)),
      retryAfterMs: allowed
        ? 0
        : exactWait(newTat - now - limit.windowMs, (d) => newTat - (now + d) <= limit.windowMs + slack),
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
    const slack = slackMs(newTat, limit);
    const waitMs = exactWait(
      newTat - now - limit.windowMs,
      (d) => newTat - (now + d) <= limit.windowMs + slack,
    );
    return { waitMs, state: [newTat], expiresInMs: Math.max(0, Math.ceil(newTat - now)) };
  },
  giveBack(state, limit, now, cost) {
    checkCost(cost, limit.limit);
    // Never before `now`: a tat in the past is a full burst already, and one further back would add to it.
    const tat = Math.max(now, tatOf(state, now) - (limit.windowMs / limit.limit) * cost);
    return { state: [tat], expiresInMs: Math.ceil(tat - now) };
  },
};
