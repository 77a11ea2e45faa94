/**
 * Sliding log: the exact count.
 *
 * Semantics (mirrored by the Redis store's Lua, a sorted set there): state is a flat list of
 * `[time, cost, time, cost, …]` entries, oldest first, one per admitted request (entries at the
 * same ms are merged); an entry counts while `now − time < windowMs`, i.e. the window is
 * `(now − windowMs, now]`.
 * - allowed iff `sum + cost ≤ limit`; a refusal adds nothing;
 * - `remaining = limit − sum`; `resetMs` = ms until the newest entry expires (all clear);
 * - `retryAfterMs` = whole ms until enough of the oldest entries expire for `cost` to fit: entry
 *   `i` expires at `time_i + windowMs` (the first whole ms the count's own test says so).
 *
 * Bound: over any interval of t ms (whole-ms times), admitted cost ≤ `limit · (⌊t / windowMs⌋ + 1)`.
 * Memory is O(entries in the window), at most `limit` entries per key.
 */
import { checkCost } from './cost.js';
import { EPSILON, exactWait } from './exact-wait.js';
import { type Algorithm, remainingOf } from './types.js';

/**
 * Whole ms until an entry at `time` no longer counts, by the very test that counts it
 * (`now − time < windowMs`): a fractional clock or window left `time + windowMs − now` a hair
 * short, and the retry it named was refused.
 */
function msUntilExpired(time: number, now: number, windowMs: number): number {
  return exactWait(time + windowMs - now, (d) => !(now + d - time < windowMs));
}

/** The sliding-log algorithm. */
export const slidingLog: Algorithm = {
  take(state, limit, now, cost) {
    checkCost(cost, limit.limit);
    const log: number[] = [];
    let sum = 0;
    for (let i = 0; state && i + 1 < state.length; i += 2) {
      if (now - state[i]! < limit.windowMs) {
        log.push(state[i]!, state[i + 1]!);
        sum += state[i + 1]!;
      }
    }
    const allowed = sum + cost <= limit.limit + EPSILON;
    let retryAfterMs = 0;
    if (allowed) {
      sum += cost;
      if (log.length > 0 && log[log.length - 2] === now) log[log.length - 1]! += cost;
      else log.push(now, cost);
    } else {
      let left = sum;
      for (let i = 0; i < log.length; i += 2) {
        left -= log[i + 1]!;
        if (left + cost <= limit.limit + EPSILON) {
          retryAfterMs = msUntilExpired(log[i]!, now, limit.windowMs);
          break;
        }
      }
    }
    const resetMs = log.length > 0 ? msUntilExpired(log[log.length - 2]!, now, limit.windowMs) : 0;
    return {
      decision: {
        allowed,
        limit: limit.limit,
        remaining: remainingOf(limit.limit, sum),
        resetMs,
        retryAfterMs,
      },
      state: log,
      expiresInMs: resetMs,
    };
  },
};
