import { defineScript } from '../lua-script.js';
import { PRELUDE } from './prelude.js';

/**
 * Sliding log: every admitted take is an entry; a take counts while `now − score < windowMs`.
 *
 * - `key`: sorted set, score = Redis time (ms) of the take, member `seq:cost` (unique, carries
 *   the cost). `key2`: string state `sum, seq, ts` (sum of the live entries' costs).
 * - `limit`, `window` (ms), `cost`: the call's inputs.
 * - entries with `score ≤ now − windowMs` are removed (and their cost subtracted) first.
 * - allowed iff `sum + cost ≤ limit` (+1e-9); `remaining = floor(limit − sum')`.
 * - `retryAfterMs`: the smallest whole ms after which enough of the oldest entries have expired.
 * - `resetMs`: ms until the newest entry expires (the log empty again).
 * - A missing (or unreadable) `key2` empties the log: the key starts fresh.
 * - Both keys expire with the newest entry. Memory: one entry per admitted take in the window.
 */
export const slidingLogScript = defineScript(
  'headway:sliding-log',
  `${PRELUDE}
local log = key
local meta = key2

local sum, seq, ts = read_state(redis.call('GET', meta), 3)
if sum == nil then
  -- No state (a fresh key, or a key of another type): the log starts empty too.
  redis.call('DEL', log)
  sum = 0
  seq = 0
end
local now = monotonic(now_ms(), ts)
local held = held_ms(now)

local function cost_of(member)
  return tonumber(string.match(member, ':(.+)$')) or 0
end

local cutoff = fmt(now - window)
local expired = redis.call('ZRANGEBYSCORE', log, '-inf', cutoff)
if #expired > 0 then
  for _, member in ipairs(expired) do sum = sum - cost_of(member) end
  redis.call('ZREMRANGEBYSCORE', log, '-inf', cutoff)
end
if redis.call('ZCARD', log) == 0 then sum = 0 end

local allowed = sum + cost <= limit + EPS
local retry = 0
if allowed then
  seq = seq + 1
  sum = sum + cost
  redis.call('ZADD', log, now, seq .. ':' .. fmt(cost))
else
  -- Walk the oldest entries until enough of them are gone; retry when the last one needed expires.
  local freed = 0
  local at = nil
  local offset = 0
  local batch = 128
  while at == nil do
    local page = redis.call('ZRANGE', log, offset, offset + batch - 1, 'WITHSCORES')
    if #page == 0 then break end
    for i = 1, #page, 2 do
      freed = freed + cost_of(page[i])
      if sum - freed + cost <= limit + EPS then
        at = tonumber(page[i + 1])
        break
      end
    end
    offset = offset + batch
  end
  if at ~= nil then
    retry = exact_wait(at + window - now, function(d) return at <= (now + d) - window end)
  end
end

local reset = 0
local newest = redis.call('ZRANGE', log, -1, -1, 'WITHSCORES')
if #newest == 2 then reset = math.max(0, math.ceil(tonumber(newest[2]) + window - now - EPS)) end
if allowed or #expired > 0 then
  if reset > 0 then
    redis.call('SET', meta, pack(sum, seq, now), 'PX', reset + held)
    redis.call('PEXPIRE', log, reset + held)
  else
    redis.call('DEL', log, meta)
  end
end
return { allowed and 1 or 0, math.max(0, math.floor(limit - sum + EPS)), reset > 0 and reset + held or 0, retry > 0 and retry + held or 0 }
`,
);
