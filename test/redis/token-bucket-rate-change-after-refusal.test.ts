/**
 * The token-bucket Lua says it mirrors `src/core/token-bucket.ts` "operation for operation", and the
 * README says the Redis store mirrors each algorithm's semantics. The Lua writes nothing on a
 * refusal, so its bucket stays stamped at the last admitted take; the memory algorithm stored the
 * bucket refilled up to the refusal. While the policy stays the same both agree, but once a key's
 * rate changed (`policyFor` returning a new plan) Redis refilled the whole time since the last
 * admitted take at the new rate, memory only the time since the refusal: the two stores decided
 * differently at the same instant. Now neither writes on a refusal, and both decide alike.
 *
 * Redis `TIME` cannot be moved, so the bucket's last write is moved an hour back instead (its
 * `updatedAt` is Redis time), and the memory algorithm is given the very same state and instants.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { algorithms } from '../../src/core/algorithms/index.js';
import { takeOnRedis } from '../../src/redis/algorithm-call.js';
import { Batcher } from '../../src/redis/batcher.js';
import { redisKey } from '../../src/redis/keys.js';
import type { StoreLimit } from '../../src/stores/store.js';
import { redisUrl, uniquePrefix, writeState } from '../support/redis.js';

let client: Redis;

beforeAll(async () => {
  client = new Redis(redisUrl(), { enableOfflineQueue: false, lazyConnect: true });
  await client.connect();
});
afterAll(() => client.disconnect());

const HOUR = 3_600_000;

describe('token bucket on Redis after a refusal, when the key’s rate changes', () => {
  it('decides as the memory algorithm at the same instants', async () => {
    const prefix = uniquePrefix('tb-rate-change');
    const target = { client, prefix, commandTimeoutMs: 1000, batcher: new Batcher(client, 1000) };
    // Free plan: 1 unit per 10 hours. Paid plan: 1 unit per 30 minutes.
    const free: StoreLimit = { algorithm: 'token-bucket', limit: 1, windowMs: 10 * HOUR };
    const paid: StoreLimit = { algorithm: 'token-bucket', limit: 1, windowMs: HOUR / 2 };

    // The free unit was spent an hour ago: an empty bucket stamped an hour back (Redis time).
    const first = await takeOnRedis(target, 'k', free, 1);
    expect(first.decision.allowed).toBe(true);
    const spentAt = first.now - HOUR;
    await writeState(client, redisKey(prefix, 'k', 'tb'), [0, spentAt]);
    let state: readonly number[] = [0, spentAt];

    // Still on the free plan: 0.1 unit refilled, refused by both.
    const refused = await takeOnRedis(target, 'k', free, 1);
    const memoryRefused = algorithms['token-bucket'].take(state, free, refused.now, 1);
    state = memoryRefused.state;
    expect(memoryRefused.decision.allowed).toBe(false);
    expect(refused.decision).toEqual(memoryRefused.decision);

    // The key moves to the paid plan right after the refusal.
    const upgraded = await takeOnRedis(target, 'k', paid, 1);
    const memoryUpgraded = algorithms['token-bucket'].take(state, paid, upgraded.now, 1);
    expect(upgraded.decision).toEqual(memoryUpgraded.decision);
  });
});
