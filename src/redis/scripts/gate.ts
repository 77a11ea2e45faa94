import { defineScript } from '../lua-script.js';
import { PRELUDE } from './prelude.js';

/**
 * The client's key gate: a key that exists while the gate is closed, its TTL the time left.
 *
 * - KEYS[1]: the gate key. ARGV[1]: whole ms to hold it closed (0 = only read).
 * - The gate only extends: the TTL is raised to `ms` when it is shorter, never lowered.
 * - Returns the whole ms the gate stays closed (0 when open). Redis expires the key on its own
 *   clock, so no process's clock is involved.
 */
export const gateScript = defineScript(
  'headway:gate',
  `${PRELUDE}
local key = KEYS[1]
local ms = tonumber(ARGV[1])
local left = redis.call('PTTL', key)
if ms > 0 and left < ms then
  redis.call('SET', key, '1', 'PX', ms)
  left = ms
end
return { math.max(0, left) }
`,
);
