import { MAX_TIMER_MS } from '../core/clock.js';
import { invalid, nonNegative, onlyFields, positive, withDefaults } from '../core/validate.js';
import type { RateLimitStore } from '../stores/store.js';
import {
  giveBackOnRedis,
  MAX_REDIS_WINDOW_MS,
  reserveOnRedis,
  type ScriptTarget,
  takeOnRedis,
} from './algorithm-call.js';
import { Batcher } from './batcher.js';
import { evalScript } from './eval-script.js';
import { redisKey, validateKey, validatePrefix } from './keys.js';
import type { RedisScriptClient } from './redis-client.js';
import { numbers } from './reply.js';
import { gateScript } from './scripts/index.js';

/** Options of {@link redisStore}. */
export interface RedisStoreOptions {
  /**
   * A connected client: an ioredis `Redis` or `Cluster`. Create it with `enableOfflineQueue: false`
   * so that, while Redis is down, calls fail at once instead of queueing (a queued take would still
   * run, and spend a unit, after its caller gave up), and `autoResendUnfulfilledCommands: false`
   * so that a take whose reply was lost with its connection is not run again after the reconnect
   * (its caller gets a `StoreError` or `StoreTimeoutError`; re-sent, it would spend a second unit).
   * A `Cluster` also needs `retryDelayOnFailover: 0` (it re-sends by itself after a node's
   * connection closed), and takes `autoResendUnfulfilledCommands` under `redisOptions`.
   */
  client: RedisScriptClient;
  /**
   * First part of every key: `prefix:{key}:tb`. No braces.
   * @default 'headway'
   */
  prefix?: string;
  /**
   * Most ms one store call waits for Redis; then it rejects with `StoreTimeoutError`
   * (`HEADWAY_STORE_TIMEOUT`). Connection and command errors reject with `StoreError`
   * (`HEADWAY_STORE_ERROR`, the client's error as `cause`). At most 2³¹−1 (about 24.8 days).
   * @default 100
   */
  commandTimeoutMs?: number;
}

/** Defaults of {@link RedisStoreOptions}, written once. */
export const redisStoreDefaults = {
  prefix: 'headway',
  commandTimeoutMs: 100,
} as const satisfies Omit<Required<RedisStoreOptions>, 'client'>;

function validateClient(client: unknown): RedisScriptClient {
  const candidate = client as Partial<RedisScriptClient> | null | undefined;
  if (typeof candidate?.evalsha !== 'function' || typeof candidate.eval !== 'function') {
    invalid('client', 'a Redis client with `evalsha` and `eval` (an ioredis `Redis` or `Cluster`)', client);
  }
  return client as RedisScriptClient;
}

/** Every option of {@link redisStore}: another is a misspelling, refused rather than ignored. */
const STORE_OPTIONS = { client: true, prefix: true, commandTimeoutMs: true } satisfies Record<
  keyof RedisStoreOptions,
  true
>;

/**
 * A {@link RateLimitStore} on Redis: one quota shared atomically by every process that uses the
 * same Redis (and prefix), for both faces. Each operation is one Lua script run in one round trip
 * (`EVALSHA`, `EVAL` on `NOSCRIPT`); the takes and reservations made in one turn of the event
 * loop share one round trip and one script run (on a Cluster, those of the same key), which reads
 * and writes a key they share once. Time comes from Redis `TIME` (the store takes no clock), keys
 * carry a `{key}` hash tag (Redis Cluster) and expire once they equal a fresh key.
 *
 * @example
 * ```ts
 * import { Redis } from 'ioredis';
 * import { redisStore } from 'headway/redis';
 * const store = redisStore({
 *   client: new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', {
 *     enableOfflineQueue: false,
 *     autoResendUnfulfilledCommands: false,
 *   }),
 * });
 * ```
 */
export function redisStore(options: RedisStoreOptions): RateLimitStore {
  onlyFields(options ?? {}, STORE_OPTIONS);
  const merged = withDefaults<{ prefix: string; commandTimeoutMs: number }>(
    { ...redisStoreDefaults },
    { prefix: options?.prefix, commandTimeoutMs: options?.commandTimeoutMs },
  );
  const client = validateClient(options?.client);
  const commandTimeoutMs = positive('commandTimeoutMs', merged.commandTimeoutMs);
  // One `setTimeout` per batch: Node fires a longer one after 1 ms.
  if (commandTimeoutMs > MAX_TIMER_MS)
    invalid('commandTimeoutMs', `at most ${MAX_TIMER_MS} ms (about 24.8 days)`, commandTimeoutMs);
  const target: ScriptTarget = {
    client,
    prefix: validatePrefix(merged.prefix),
    commandTimeoutMs,
    batcher: new Batcher(client, commandTimeoutMs),
  };

  async function gate(key: string, ms: number): Promise<number> {
    validateKey(key);
    const reply = await evalScript(
      target.client,
      gateScript,
      [redisKey(target.prefix, key, 'gate')],
      [Math.ceil(ms)],
      target.commandTimeoutMs,
      key,
    );
    return numbers(reply, 1, key)[0]!;
  }

  return {
    async take(key, limit, cost) {
      return (await takeOnRedis(target, key, limit, cost)).decision;
    },
    async reserve(key, limit, cost) {
      return { waitMs: (await reserveOnRedis(target, key, limit, cost)).waitMs };
    },
    giveBack(key, limit, cost) {
      return giveBackOnRedis(target, key, limit, cost);
    },
    async holdGate(key, ms) {
      if (nonNegative('ms', ms) > MAX_REDIS_WINDOW_MS)
        invalid('ms', `at most ${MAX_REDIS_WINDOW_MS} ms on Redis (a gate's expiry)`, ms);
      return gate(key, ms);
    },
    async gateWait(key) {
      return gate(key, 0);
    },
  };
}
