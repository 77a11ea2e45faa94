/**
 * Lua shared by every Headway script, prepended to each one (Redis scripts cannot import).
 *
 * - `now_ms()` reads the server's `TIME` (µs precision, as fractional ms) once per script run, so
 *   the clocks of the processes that share a quota never enter the computation, and every call of
 *   a batch (which runs atomically) is decided at the same instant. `redis.replicate_commands()` makes
 *   a script that reads `TIME` and then writes legal on Redis 3.2–4 (effects replication; it is the
 *   only mode, and a no-op, from Redis 5 on).
 * - `monotonic(now, ts)`: a key remembers the last time it was written (`ts`); a server clock that
 *   steps back is treated as standing still, so it can never remove units. `held_ms(now)` is how
 *   far that held time is ahead of the clock: a wait computed from it (`retryAfterMs`, the reset,
 *   a key's TTL) is that much longer in real time, and each script adds it, so a `Retry-After`
 *   stays exact.
 * - `fmt(x)`: a number as a `%.17g` string, which reads back as the same double (Lua's own `..`
 *   keeps only 14 digits). Numbers passed to `redis.call` need no `fmt`: Redis converts them with
 *   `%.17g` itself (and from 7.2 with the shortest exact form).
 * - `read_state(value, n)` / `pack(...)`: a key's state is one string of `n` little-endian doubles
 *   (`struct.pack('<d…')`, exact and cheap to decode), written with one `SET key value PX ttl`;
 *   `read_state` returns its `n` numbers, or nothing when `value` is not such a string (a missing
 *   key, which `GET` answers with `false`).
 * - `exact_wait(estimate, admitted, …)`: the smallest whole ms `d ≥ 0` with `admitted(d, …)`,
 *   from an analytic estimate corrected by single steps against the real predicate (bounded),
 *   exactly as `exactWait` in TypeScript. Up to five inputs of the predicate are passed along
 *   after it, so a hot path need not build a closure per call.
 */
export const PRELUDE = `
if redis.replicate_commands then pcall(redis.replicate_commands) end
local EPS = 1e-9
local MAX_STEPS = 10000
local NOW = nil
local function now_ms()
  if NOW == nil then
    local t = redis.call('TIME')
    NOW = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
  end
  return NOW
end
local function monotonic(now, ts)
  if ts ~= nil and ts > now then return ts end
  return now
end
local function held_ms(now)
  return math.max(0, math.ceil(now - now_ms() - EPS))
end
local function fmt(x)
  return string.format('%.17g', x)
end
local FORMATS = { '<d', '<dd', '<ddd', '<dddd' }
local function read_state(value, n)
  if type(value) ~= 'string' or #value ~= 8 * n then return nil end
  return struct.unpack(FORMATS[n], value)
end
local function pack(...)
  return struct.pack(FORMATS[select('#', ...)], ...)
end
local function exact_wait(estimate, admitted, a, b, c, d, e)
  local ms = math.max(0, math.ceil(estimate))
  local i = 0
  while i < MAX_STEPS and ms > 0 and admitted(ms - 1, a, b, c, d, e) do
    ms = ms - 1
    i = i + 1
  end
  i = 0
  while i < MAX_STEPS and not admitted(ms, a, b, c, d, e) do
    ms = ms + 1
    i = i + 1
  end
  return ms
end
`;
