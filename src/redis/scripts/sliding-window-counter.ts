import { defineScript } from '../lua-script.js';
import { PRELUDE } from './prelude.js';

/**
 * Sliding window counter: the previous fixed window's count, decaying linearly, plus the current.
 *
 * - `key`: string state `window index, cur, prev, ts`; windows epoch-aligned on Redis time.
 * - `limit`, `window` (ms), `cost`: the call's inputs.
 * - at time t in window k (elapsed e = t − k·windowMs):
 *   `estimate = prev·(1 − e/windowMs) + cur`, where a roll to window k+1 makes `prev = cur, cur = 0`
 *   and a longer gap makes both 0.
 * - allowed iff `estimate + cost ≤ limit` (+1e-9); then `cur += cost`. A refusal writes nothing.
 * - `remaining = floor(limit − estimate')`.
 * - `retryAfterMs`: the smallest whole ms after which the estimate (decaying, or rolled into the
 *   next window) admits `cost`.
 * - `resetMs`: ms until the estimate is 0 again (the quota whole): the end of the next window when
 *   `cur > 0`, the end of this one when only `prev > 0`, else 0.
 * - The key expires at `resetMs`, where it equals a missing key.
 */
export const slidingWindowCounterScript = defineScript(
  'headway:sliding-window-counter',
  `${PRELUDE}

local s_index, s_cur, s_prev, ts = read_state(redis.call('GET', key), 4)
local now = monotonic(now_ms(), ts)
s_cur = s_cur or 0
s_prev = s_prev or 0

-- The (prev, cur) pair seen at time t, from a state stored in window s_index.
local function rolled(t, idx, prev, cur)
  local k = math.floor(t / window)
  if idx == nil then return k, 0, 0 end
  if k <= idx then return idx, prev, cur end
  if k == idx + 1 then return k, cur, 0 end
  return k, 0, 0
end
local function estimate_at(t, idx, prev, cur)
  local k, p, c = rolled(t, idx, prev, cur)
  return p * (1 - (t - k * window) / window) + c
end

local index, prev, cur = rolled(now, s_index, s_prev, s_cur)
local estimate = estimate_at(now, s_index, s_prev, s_cur)
local allowed = estimate + cost <= limit + EPS
local retry = 0
if allowed then
  cur = cur + cost
  estimate = estimate + cost
else
  local elapsed = now - index * window
  local guess
  if prev > 0 and cur + cost <= limit + EPS then
    guess = window - elapsed - ((limit - cost - cur) * window) / prev
  end
  if guess == nil or now + guess >= (index + 1) * window then
    guess = (index + 1) * window - now
    if cur > 0 then guess = guess + math.max(0, window - ((limit - cost) * window) / cur) end
  end
  retry = exact_wait(guess, function(d)
    return estimate_at(now + d, index, prev, cur) + cost <= limit + EPS
  end)
end

local reset = 0
if cur > 0 then
  reset = math.ceil((index + 2) * window - now - EPS)
elseif prev > 0 then
  reset = math.ceil((index + 1) * window - now - EPS)
end
reset = math.max(0, reset)
if allowed then
  redis.call('SET', key, pack(index, cur, prev, now), 'PX', math.max(1, reset))
end
return { allowed and 1 or 0, math.max(0, math.floor(limit - estimate + EPS)), reset, retry }
`,
);
