import { defineScript } from '../lua-script.js';
import { PRELUDE } from './prelude.js';

/**
 * GCRA (TAT-based), mirroring `src/core/algorithms/gcra.ts`.
 *
 * - `key`: string state `tat, ts` (Redis time, ms); a missing key has `tat = now`.
 * - `limit`, `window` (ms), `cost`, `mode` (`take` | `reserve` | `give-back`): the call's inputs.
 * - emission interval `T = windowMs / limit`, tolerance `windowMs`;
 *   `newTat = max(tat, now) + T·cost`; allowed iff `newTat − now ≤ windowMs` (+ the slack of
 *   `tat`'s rounding, as in gcra.ts).
 * - take: `remaining = floor((windowMs − (tat' − now)) / T)` of the resulting tat;
 *   `retryAfterMs` = smallest whole ms after which `newTat − now ≤ windowMs`;
 *   `resetMs = ceil(tat' − now)`. A refusal writes nothing.
 * - reserve: `tat = newTat` always; `waitMs = max(0, ceil(newTat − now − windowMs))` (exact).
 * - give-back: `tat = max(now, tat − T·cost)`; returns `{ 0 }`.
 * - The key expires at its tat, where it equals a missing key.
 */
export const gcraScript = defineScript(
  'headway:gcra',
  `${PRELUDE}
local interval = window / limit

local stored, ts = read_state(redis.call('GET', key), 2)
local now = monotonic(now_ms(), ts)
local held = held_ms(now)
local base = now
if stored ~= nil then base = math.max(stored, now) end
if mode == 'give-back' then
  local tat = math.max(now, base - interval * cost)
  redis.call('SET', key, pack(tat, now), 'PX', math.max(1, math.ceil(tat - now)) + held)
  return { 0 }
end
local new_tat = base + interval * cost
-- The rounding of tat's sums (see gcra.ts, slackMs): up to limit + 1 steps of 2^-52 of it, and
-- at most half an interval.
local function slack_of(t) return math.min(interval / 2, EPS + (limit + 1) * math.abs(t) * 2.220446049250313e-16) end
local slack = slack_of(new_tat)
local function admitted(d) return new_tat - (now + d) <= window + slack end

if mode == 'reserve' then
  local wait = exact_wait(new_tat - now - window, admitted)
  redis.call('SET', key, pack(new_tat, now), 'PX', math.max(1, math.ceil(new_tat - now)) + held)
  return { wait > 0 and wait + held or 0 }
end

local allowed = new_tat - now <= window + slack
local tat = base
local retry = 0
if allowed then
  tat = new_tat
else
  retry = exact_wait(new_tat - now - window, admitted)
end
local reset = math.max(0, math.ceil(tat - now - slack))
local remaining = math.max(0, math.floor((window - (tat - now) + slack_of(tat)) / interval))
if allowed then
  redis.call('SET', key, pack(tat, now), 'PX', math.max(1, reset) + held)
end
return { allowed and 1 or 0, remaining, reset + held, retry > 0 and retry + held or 0 }
`,
);
