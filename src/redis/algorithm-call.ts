import { checkCost } from '../core/algorithms/cost.js';
import { algorithmNames } from '../core/algorithms/names.js';
import { invalid, oneOf, positive } from '../core/validate.js';
import { UnsupportedAlgorithmError } from '../errors.js';
import type { Decision, StoreLimit } from '../stores/store.js';
import type { BatchDecoder, Batcher } from './batcher.js';
import { redisKey, validateKey } from './keys.js';
import type { RedisScriptClient } from './redis-client.js';
import { algorithmScripts } from './scripts/index.js';

/** Where and how a store runs its scripts. */
export interface ScriptTarget {
  client: RedisScriptClient;
  prefix: string;
  commandTimeoutMs: number;
  /** Sends the algorithm calls of one event-loop turn in one round trip. */
  batcher: Batcher;
}

/** A decision with the Redis time (epoch ms, fractional) the script made it at. */
export interface TimedDecision {
  decision: Decision;
  /** Redis `TIME` at the decision, in ms. */
  now: number;
}

/** A reservation with the Redis time (epoch ms, fractional) the script made it at. */
export interface TimedReservation {
  waitMs: number;
  /** Redis `TIME` at the reservation, in ms. */
  now: number;
}

function checkLimit(limit: StoreLimit): void {
  oneOf('algorithm', limit?.algorithm, algorithmNames);
  positive('limit', limit.limit);
  // Redis replies in 64-bit integers, and units beyond 2⁵³ cannot be counted one by one anyway.
  if (limit.limit > Number.MAX_SAFE_INTEGER)
    invalid(
      'limit',
      'at most Number.MAX_SAFE_INTEGER on Redis (its replies are 64-bit integers)',
      limit.limit,
    );
  positive('windowMs', limit.windowMs);
  // A key's expiry is a whole number of ms up to about two windows, which Lua writes as `1e+17`
  // (refused by Redis, every call then a store error) from 10¹⁷ on.
  if (limit.windowMs > MAX_REDIS_WINDOW_MS)
    invalid('windowMs', `at most ${MAX_REDIS_WINDOW_MS} ms (some 31,700 years) on Redis`, limit.windowMs);
}

/** The longest window (and gate) the Redis scripts can write an expiry for. */
export const MAX_REDIS_WINDOW_MS = 1e15;

function keysOf(target: ScriptTarget, key: string, suffixes: readonly string[]): string[] {
  return suffixes.map((suffix) => redisKey(target.prefix, key, suffix));
}

/**
 * Validates the call, then runs the algorithm's script once in `mode` (batched with the other
 * calls of this turn); resolves with `decode` of its `width` values.
 */
async function runScript<T>(
  target: ScriptTarget,
  key: string,
  limit: StoreLimit,
  cost: number,
  mode: 'take' | 'reserve' | 'give-back',
  width: number,
  decode: BatchDecoder<T>,
): Promise<T> {
  validateKey(key);
  checkLimit(limit);
  checkCost(cost, limit.limit);
  const spec = algorithmScripts[limit.algorithm];
  if (mode !== 'take' && !spec.reserves)
    throw new UnsupportedAlgorithmError(limit.algorithm, mode === 'reserve' ? 'reserve' : 'giveBack');
  return target.batcher.run(
    spec.script,
    key,
    keysOf(target, key, spec.keys),
    [limit.limit, limit.windowMs, cost, mode],
    width,
    decode,
  );
}

/** Server face: one atomic take on Redis, with the Redis time it happened at. */
export function takeOnRedis(
  target: ScriptTarget,
  key: string,
  limit: StoreLimit,
  cost: number,
): Promise<TimedDecision> {
  return runScript(target, key, limit, cost, 'take', 4, (reply, at, now) => ({
    decision: {
      allowed: reply[at] === 1,
      limit: limit.limit,
      remaining: reply[at + 1]!,
      resetMs: reply[at + 2]!,
      retryAfterMs: reply[at + 3]!,
    },
    now,
  }));
}

/** Client face: one atomic reservation on Redis (token bucket or GCRA), with its Redis time. */
export function reserveOnRedis(
  target: ScriptTarget,
  key: string,
  limit: StoreLimit,
  cost: number,
): Promise<TimedReservation> {
  return runScript(target, key, limit, cost, 'reserve', 1, (reply, at, now) => ({ waitMs: reply[at]!, now }));
}

/** Client face: gives back units a reservation booked (token bucket or GCRA), atomically on Redis. */
export async function giveBackOnRedis(
  target: ScriptTarget,
  key: string,
  limit: StoreLimit,
  cost: number,
): Promise<void> {
  await runScript(target, key, limit, cost, 'give-back', 1, () => undefined);
}
