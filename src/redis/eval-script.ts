import { isHeadwayError, StoreError, StoreTimeoutError } from '../errors.js';
import { whenReplyLost } from './lost-replies.js';
import type { LuaScript } from './lua-script.js';
import type { RedisScriptClient } from './redis-client.js';

/** True for Redis's "script not in cache" reply. */
function isNoScript(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('NOSCRIPT');
}

async function evalOnce(
  client: RedisScriptClient,
  script: LuaScript,
  keys: readonly string[],
  args: readonly (string | number)[],
): Promise<unknown> {
  try {
    return await client.evalsha(script.sha, keys.length, ...keys, ...args);
  } catch (error) {
    if (!isNoScript(error)) throw error;
    // The server lost its script cache (restart, failover, SCRIPT FLUSH): send the source once.
    return await client.eval(script.source, keys.length, ...keys, ...args);
  }
}

/**
 * Runs `script` in one round trip (`EVALSHA`, falling back to `EVAL` on `NOSCRIPT`) within
 * `timeoutMs`. Rejects with {@link StoreTimeoutError} when Redis does not answer in time (the timer
 * is cleared either way) and with {@link StoreError} (the client's error as `cause`) when the
 * command fails, or at once when its reply is lost with the connection ({@link whenReplyLost}). `key` is the caller's limit key, for the error.
 */
export function evalScript(
  client: RedisScriptClient,
  script: LuaScript,
  keys: readonly string[],
  args: readonly (string | number)[],
  timeoutMs: number,
  key: string,
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    // The verdict waits one turn of the event loop: a process that was busy (GC, a starved CPU)
    // runs its late timers before it reads the socket, and a reply that has already arrived is
    // not a timeout. (A promise settles once: whichever comes first wins.)
    const timer = setTimeout(
      () => setImmediate(() => reject(new StoreTimeoutError(key, timeoutMs, 'commandTimeoutMs'))),
      timeoutMs,
    );
    const forget = whenReplyLost(client, (error) => {
      clearTimeout(timer);
      reject(new StoreError(key, error));
    });
    evalOnce(client, script, keys, args).then(
      (reply) => {
        clearTimeout(timer);
        forget();
        resolve(reply);
      },
      (error: unknown) => {
        clearTimeout(timer);
        forget();
        reject(isHeadwayError(error) ? error : new StoreError(key, error));
      },
    );
  });
}
