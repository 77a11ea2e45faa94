import { defineScript } from '../lua-script.js';
import { PRELUDE } from './prelude.js';

/**
 * Token bucket, mirroring `src/core/token-bucket.ts` operation for operation.
 *
 * - `key`: string state `tokens, updatedAt` (Redis time, ms); a missing key is a full bucket.
 * - `limit`, `window` (ms), `cost`, `mode` (`take` | `reserve` | `give-back`): the call's inputs.
 * - burst = limit; refill `limit/windowMs` units per ms (`pms`), lazily; fractional tokens kept.
 * - take: allowed iff tokens ≥ cost − 1e-9; a refusal writes nothing. Returns
 *   `{ allowed, remaining, resetMs, retryAfterMs }`.
 * - reserve: tokens −= cost (may go negative); returns `{ waitMs }`, the wait computed before
 *   subtracting.
 * - give-back: tokens += cost, at most the burst; returns `{ 0 }`.
 * - The key expires when the bucket would be full again, where it equals a missing key.
 * - `refill` and `ms_until` are defined once per batch (before `-- per call`), not per call.
 */
export const tokenBucketScript = defineScript(
  'headway:token-bucket',
  `${PRELUDE}
local function refill(tk, at, t, limit, pms)
  if not (t > at) or tk >= limit then return math.min(tk, limit) end
  return math.min(limit, tk + (t - at) * pms)
end

local function enough(ms, tk, at, need, limit, pms)
  return refill(tk, at, at + ms, limit, pms) >= need - EPS
end

-- Whole ms until the bucket holds need (refill alone).
local function ms_until(tk, at, need, limit, pms)
  if tk >= need - EPS then return 0 end
  return exact_wait((need - tk) / pms, enough, tk, at, need, limit, pms)
end
-- per call
local pms = limit / window

local tokens, ts = read_state(redis.call('GET', key), 2)
local now = monotonic(now_ms(), ts)
local held = held_ms(now)
if tokens == nil or ts == nil then
  tokens = limit
  ts = now
end
tokens = refill(tokens, ts, now, limit, pms)
ts = now

if mode == 'reserve' then
  local wait = ms_until(tokens, ts, cost, limit, pms)
  local after = tokens - cost
  redis.call('SET', key, pack(after, ts), 'PX', math.max(1, math.ceil(((limit - after) * window) / limit)) + held)
  return { wait > 0 and wait + held or 0 }
end

if mode == 'give-back' then
  local after = math.min(limit, tokens + cost)
  redis.call('SET', key, pack(after, ts), 'PX', math.max(1, math.ceil(((limit - after) * window) / limit)) + held)
  return { 0 }
end

local allowed = tokens >= cost - EPS
local after = tokens
local retry = 0
if allowed then
  after = math.max(0, tokens - cost)
else
  retry = ms_until(tokens, ts, cost, limit, pms)
end
local reset = ms_until(after, ts, limit, limit, pms)
if allowed then
  redis.call('SET', key, pack(after, ts), 'PX', math.max(1, reset) + held)
end
return { allowed and 1 or 0, math.max(0, math.floor(after + EPS)), reset + held, retry > 0 and retry + held or 0 }
`,
);
