/**
 * Fixed window.
 *
 * Semantics (mirrored by the Redis store's Lua): windows are aligned to multiples of `windowMs` on
 * the store clock, `start = floor(now / windowMs) · windowMs`; state `[start, count]`, and a state
 * from an older window counts as empty.
 * - allowed iff `count + cost ≤ limit`; a refusal adds nothing;
 * - `remaining = limit − count`; `resetMs` = the whole ms until the window's end: the first whole
 *   ms whose `floor(t / windowMs)` is the next window's (a window that is not a whole number of ms
 *   ends where that division says, not where the exact quotient would);
 * - `retryAfterMs = resetMs` when refused (the next window is empty, and `cost ≤ limit`).
 *
 * Bound: over any interval of t ms, admitted cost ≤ `limit · (⌈t / windowMs⌉ + 1)`. In particular
 * **the boundary hole**: `2 · limit` can pass within 1 ms, `limit` at the end of one window and
 * `limit` at the start of the next. Use a sliding or bucket algorithm where that matters.
 */
import { checkCost } from './cost.js';
import { EPSILON, exactWait } from './exact-wait.js';
import { type Algorithm, type InPlaceTake, remainingOf, takeViaInPlace } from './types.js';

const inPlace: InPlaceTake = {
  width: 2,
  take(state, at, fresh, limit, now, cost) {
    checkCost(cost, limit.limit);
    const { windowMs } = limit;
    const index = Math.floor(now / windowMs);
    const start = index * windowMs;
    const used = !fresh && state[at] === start ? state[at + 1]! : 0;
    const allowed = used + cost <= limit.limit + EPSILON;
    const count = allowed ? used + cost : used;
    state[at] = start;
    state[at + 1] = count;
    const resetMs = exactWait(start + windowMs - now, (d) => Math.floor((now + d) / windowMs) > index);
    return {
      allowed,
      limit: limit.limit,
      remaining: remainingOf(limit.limit, count),
      resetMs,
      retryAfterMs: allowed ? 0 : resetMs,
    };
  },
};

/** The fixed-window algorithm (decided in place, so the memory store keeps its state in a slab). */
export const fixedWindow: Algorithm = { inPlace, take: takeViaInPlace(inPlace) };
