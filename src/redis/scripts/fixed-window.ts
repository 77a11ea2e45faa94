import { defineScript } from '../lua-script.js';
import { PRELUDE } from './prelude.js';

/**
 * Fixed window.
 *
 * - `key`: string state `window start, units counted, ts`; window `k` starts at `k·windowMs` of
 *   Redis time (epoch-aligned, so every process agrees); its start is stored and compared, as the
 *   memory algorithm does (a key whose `windowMs` changes decides as it does there).
 * - `limit`, `window` (ms), `cost`: the call's inputs.
 * - allowed iff `n + cost ≤ limit` (+1e-9); `remaining = floor(limit − n')`;
 *   `resetMs` = the first whole ms whose `floor(t / window)` is the next window's (as the memory
 *   algorithm: exact however the window's length rounds); `retryAfterMs = resetMs` when refused (the next window
 *   admits any cost ≤ limit). A refusal writes nothing.
 * - The key expires at the window end.
 */
export const fixedWindowScript = defineScript(
  'headway:fixed-window',
  `${PRELUDE}

local s_start, s_count, ts = read_state(redis.call('GET', key), 3)
local now = monotonic(now_ms(), ts)
local held = held_ms(now)
local index = math.floor(now / window)
local start = index * window
local count = 0
if s_start == start then count = s_count end

local allowed = count + cost <= limit + EPS
if allowed then count = count + cost end
local reset = exact_wait((index + 1) * window - now, function(d)
  return math.floor((now + d) / window) > index
end)
local retry = 0
if not allowed then retry = reset end
if allowed then
  redis.call('SET', key, pack(start, count, now), 'PX', reset + held)
end
return { allowed and 1 or 0, math.max(0, math.floor(limit - count + EPS)), reset + held, retry > 0 and retry + held or 0 }
`,
);
