import { defineScript, type LuaScript } from './lua-script.js';
import { PRELUDE } from './scripts/prelude.js';

/**
 * The line that ends an algorithm script's helpers: what comes before it (after the prelude) is
 * defined once per batch, what follows runs once per call. A script without it is all body.
 */
const PER_CALL = '\n-- per call\n';

/**
 * Lua that lets the calls of one batch read a key's state once and write it once. `batched.call`
 * stands in for `redis.call` inside the algorithm's body: `GET` is answered from memory (the batch
 * reads every state key with one `MGET` up front; a key it has not read is read then, with `MGET`
 * too, which answers `false` for a key of another type instead of failing), `SET key value PX ttl`
 * is recorded (the last one wins), and any other command first writes out what is pending.
 * `flush_all()` writes everything at the end of the run: one `SET … PX` per key written. Time
 * stands still during a script (`now_ms()` is read once), so the deferred write sets the same
 * expiry as the last call's, and the calls on one key decide exactly as one by one.
 * Every expiry (`SET … PX`, `PEXPIRE`) is one ms longer than the algorithm asks: Redis counts it
 * from its whole-ms clock, the state from `TIME`'s µs, so without it a key could vanish up to a
 * ms before it equals a missing key (and a fresh key's full burst would pass in that gap).
 */
const WRITE_BACK = `
local call = redis.call
local EXPIRY_SLACK_MS = 1
-- values: each key's state as read or last written (false: none); ttls: PX of each pending write.
local values = {}
local ttls = {}
local function flush_all()
  for key, ttl in pairs(ttls) do call('SET', key, values[key], 'PX', ttl + EXPIRY_SLACK_MS) end
  values = {}
  ttls = {}
end
local function read_all(keys)
  local read = call('MGET', unpack(keys))
  for i = 1, #keys do values[keys[i]] = read[i] end
end
local batched = {}
function batched.call(command, key, ...)
  if command == 'GET' then
    local value = values[key]
    if value == nil then
      read_all({ key })
      value = values[key]
    end
    return value
  end
  if command == 'SET' then
    local value, _, ttl = ...
    values[key] = value
    ttls[key] = ttl
    return true
  end
  flush_all()
  if command == 'PEXPIRE' then
    local ttl = ...
    return call('PEXPIRE', key, ttl + EXPIRY_SLACK_MS)
  end
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
 * policy). `redis` inside the body is the write-back stand-in above; for one-key algorithms the
 * batch first reads all their distinct keys with one `MGET`. So a decision costs Redis its share
 * of one `MGET` and one `SET … PX` of its key, however many calls of the batch share the key. The
 * reply is flat: every call's values in order, then the Redis time (`%.17g` ms) of the run. So one
 * `EVALSHA` (one round trip, one script start, one `TIME`) decides for every call in flight.
 */
export function batchScript(script: LuaScript): LuaScript {
  if (!script.source.startsWith(PRELUDE)) throw new Error(`${script.name} does not start with the prelude`);
  const own = script.source.slice(PRELUDE.length);
  const split = own.indexOf(PER_CALL);
  const [shared, body] = split < 0 ? ['', own] : [own.slice(0, split), own.slice(split + PER_CALL.length)];
  return defineScript(
    `${script.name}:batch`,
    `${PRELUDE}${WRITE_BACK}${shared}
local function one(key, key2, limit, window, cost, mode, redis)
${body}
end
local per_call = tonumber(ARGV[1])
if per_call == 1 then
  local distinct = {}
  local seen = {}
  for i = 1, #KEYS do
    local key = KEYS[i]
    if not seen[key] then
      seen[key] = true
      distinct[#distinct + 1] = key
    end
  end
  read_all(distinct)
end
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
    if per_call > 1 then key2 = KEYS[k + 2] end
    k = k + per_call
    local reply = one(key, key2, limit, window, tonumber(ARGV[a + 3 + c]), mode, batched)
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
