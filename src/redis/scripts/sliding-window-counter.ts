import { defineScript } from '../lua-script.js';
import { PRELUDE } from './prelude.js';

/**
 * Sliding window counter: the previous fixed window's count, decaying linearly, plus the current.
 *
 * - `key`: string state `window start, cur, prev, ts`; windows epoch-aligned on Redis time, their
 *   starts stored and compared as the memory algorithm does (`(k − 1)·windowMs` is the window before).
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

local s_start, s_cur, s_prev, ts = read_state(redis.call('GET', key), 4)
local now = monotonic(now_ms(), ts)
local held = held_ms(now)
s_cur = s_cur or 0
s_prev = s_prev or 0

-- The window start at time t, and the (prev, cur) pair seen then from a state stored for the
-- window starting at \`stored\` (as the memory algorithm's \`counts\`).
local function rolled(t, stored, prev, cur)
  local k = math.floor(t / window)
  local start = k * window
  if stored == start then return start, prev, cur end
  if stored == (k - 1) * window then return start, cur, 0 end
  return start, 0, 0
end
local function estimate_at(t, stored, prev, cur)
  local start, p, c = rolled(t, stored, prev, cur)
  return p * (1 - (t - start) / window) + c
end

local start, prev, cur = rolled(now, s_start, s_prev, s_cur)
local estimate = estimate_at(now, s_start, s_prev, s_cur)
local allowed = estimate + cost <= limit + EPS
local retry = 0
if allowed then
  cur = cur + cost
  estimate = estimate + cost
else
  local elapsed = now - start
  local guess
  if prev > 0 and cur + cost <= limit + EPS then
    guess = window - elapsed - ((limit - cost - cur) * window) / prev
  end
  if guess == nil or now + guess >= start + window then
    guess = start + window - now
    if cur > 0 then guess = guess + math.max(0, window - ((limit - cost) * window) / cur) end
  end
  retry = exact_wait(guess, function(d)
    return estimate_at(now + d, start, prev, cur) + cost <= limit + EPS
  end)
end

-- As the memory algorithm writes it, to the bit.
local reset = 0
if cur > 0 then
  reset = math.ceil(start + 2 * window - now - EPS)
elseif prev > 0 then
  reset = math.ceil(start + 1 * window - now - EPS)
end
reset = math.max(0, reset)
if allowed then
  redis.call('SET', key, pack(start, cur, prev, now), 'PX', math.max(1, reset) + held)
end
return { allowed and 1 or 0, math.max(0, math.floor(limit - estimate + EPS)), reset + held, retry > 0 and retry + held or 0 }
`,
);
