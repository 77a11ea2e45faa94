import { defineScript, type LuaScript } from './lua-script.js';
import { PRELUDE } from './scripts/prelude.js';

/**
 * The batch form of an algorithm's script: its body as a function `one(KEYS, ARGV)`, run once per
 * call of the batch. `KEYS` holds every call's keys in order (`ARGV[1]` keys per call) and `ARGV`
 * from 2 on every call's four arguments; the reply is the list of the calls' replies. So one
 * `EVALSHA` (one round trip, one script start on Redis) decides for every call in flight.
 */
export function batchScript(script: LuaScript): LuaScript {
  if (!script.source.startsWith(PRELUDE)) throw new Error(`${script.name} does not start with the prelude`);
  return defineScript(
    `${script.name}:batch`,
    `${PRELUDE}
local function one(KEYS, ARGV)
${script.source.slice(PRELUDE.length)}
end
local per_call = tonumber(ARGV[1])
local calls = (#ARGV - 1) / 4
local out = {}
for i = 0, calls - 1 do
  local keys = {}
  for j = 1, per_call do keys[j] = KEYS[i * per_call + j] end
  out[i + 1] = one(keys, { ARGV[2 + i * 4], ARGV[3 + i * 4], ARGV[4 + i * 4], ARGV[5 + i * 4] })
end
return out
`,
  );
}
