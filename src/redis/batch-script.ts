import { defineScript, type LuaScript } from './lua-script.js';
import { PRELUDE } from './scripts/prelude.js';

/**
 * Lua that lets the calls of one batch read a hash once and write it once. `batched.call` stands
 * in for `redis.call` inside the algorithm's body: `HMGET` of fields already known this run is
 * answered from memory, `HSET` and `PEXPIRE` are recorded (the last value wins), and any other
 * command first writes out what is pending. `flush_all()` writes everything at the end of the run.
 * Time stands still during a script (`now_ms()` is read once), so the deferred `PEXPIRE` sets the
 * same expiry as the last call's, and the calls on one key decide exactly as one by one.
 */
const WRITE_BACK = `
local call = redis.call
local cache = {}
local function write(key, entry)
  if entry.set ~= nil then
    local args = {}
    for name, value in pairs(entry.set) do
      args[#args + 1] = name
      args[#args + 1] = value
    end
    call('HSET', key, unpack(args))
  end
  if entry.ttl ~= nil then call('PEXPIRE', key, entry.ttl) end
end
local function flush_all()
  for key, entry in pairs(cache) do write(key, entry) end
  cache = {}
end
local batched = {}
function batched.call(command, key, ...)
  local n = select('#', ...)
  if command == 'HMGET' then
    local entry = cache[key]
    if entry ~= nil then
      local values = {}
      for i = 1, n do
        local value = entry.fields[select(i, ...)]
        if value == nil then
          values = nil
          break
        end
        values[i] = value
      end
      if values ~= nil then return values end
    end
    flush_all()
    local values = call('HMGET', key, ...)
    local fields = {}
    for i = 1, n do fields[select(i, ...)] = values[i] end
    cache[key] = { fields = fields }
    return values
  end
  if command == 'HSET' then
    local entry = cache[key]
    if entry == nil then
      entry = { fields = {} }
      cache[key] = entry
    end
    entry.set = entry.set or {}
    for i = 1, n, 2 do
      local name, value = select(i, ...)
      entry.fields[name] = value
      entry.set[name] = value
    end
    return 0
  end
  if command == 'PEXPIRE' and cache[key] ~= nil then
    cache[key].ttl = ...
    return 1
  end
  flush_all()
  return call(command, key, ...)
end
`;

/**
 * The batch form of an algorithm's script, the only form the store sends: the script's body (after
 * the prelude) as a function `one(key, key2, limit, window, cost, mode, redis)`, run once per call
 * (`key2` is the second key of a two-key algorithm, else nil; `limit`, `window` and `cost` are
 * numbers). `KEYS` holds every call's one or two keys in order (`ARGV[1]` keys per call); from
 * `ARGV[2]` on come runs of consecutive calls with the same limit, window and mode: `limit,
 * windowMs, mode, count`, then the `count` calls' costs (one run for the usual batch of one
 * policy). For a call whose keys other calls of the batch also touch, `redis` inside the body is
 * the write-back stand-in above, so a batch reads and writes each hash once however many of its
 * calls share the key (a key used once goes straight to Redis, without the bookkeeping). The reply
 * is flat: every call's values in order, then the Redis time (`%.17g` ms) of the run. So one
 * `EVALSHA` (one round trip, one script start, one `TIME`) decides for every call in flight.
 */
export function batchScript(script: LuaScript): LuaScript {
  if (!script.source.startsWith(PRELUDE)) throw new Error(`${script.name} does not start with the prelude`);
  return defineScript(
    `${script.name}:batch`,
    `${PRELUDE}${WRITE_BACK}
local function one(key, key2, limit, window, cost, mode, redis)
${script.source.slice(PRELUDE.length)}
end
local per_call = tonumber(ARGV[1])
local uses = {}
for i = 1, #KEYS do uses[KEYS[i]] = (uses[KEYS[i]] or 0) + 1 end
local out = {}
local n = 0
local k = 0
local a = 2
while a <= #ARGV do
  local limit, window, mode = tonumber(ARGV[a]), tonumber(ARGV[a + 1]), ARGV[a + 2]
  local count = tonumber(ARGV[a + 3])
  for c = 1, count do
    local key = KEYS[k + 1]
    local key2 = nil
    local backend = redis
    if per_call > 1 then key2 = KEYS[k + 2] end
    if uses[key] > 1 or (key2 ~= nil and uses[key2] > 1) then backend = batched end
    k = k + per_call
    local reply = one(key, key2, limit, window, tonumber(ARGV[a + 3 + c]), mode, backend)
    for j = 1, #reply do out[n + j] = reply[j] end
    n = n + #reply
  end
  a = a + 4 + count
end
flush_all()
out[n + 1] = fmt(now_ms())
return out
`,
  );
}
