/**
 * `commandTimeoutMs` is "most ms one store call waits for Redis", timed by one `setTimeout` per
 * batch. Node fires a `setTimeout` longer than 2³¹−1 ms (~24.8 days) after 1 ms: a store with a
 * longer timeout (a user who means "no timeout") timed every call out at once. Such a timeout is
 * now refused when the store is made, with the option named; the longest a timer keeps still
 * waits for Redis. Fake timers reproduce Node's overflow rule (as
 * `test/reliability/timer-overflow.test.ts` does for the clock), so nothing really waits.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type RedisScriptClient, redisStore } from '../../src/redis/index.js';
import type { StoreLimit } from '../../src/stores/store.js';

/** A client whose every script answers `reply` after `ms` (of fake time). */
function answeringAfter(ms: number, reply: unknown): RedisScriptClient {
  const later = () => new Promise((resolve) => setTimeout(() => resolve(reply), ms));
  return { evalsha: later, eval: later };
}

const limit: StoreLimit = { algorithm: 'token-bucket', limit: 10, windowMs: 1_000 };

describe('redisStore with a commandTimeoutMs at or beyond the timer limit', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each([2 ** 31, 30 * 86_400_000])(
    'commandTimeoutMs %d is refused, naming the option',
    (commandTimeoutMs) => {
      expect(() => redisStore({ client: answeringAfter(50, [0]), commandTimeoutMs })).toThrow(
        expect.objectContaining({ code: 'HEADWAY_INVALID_OPTION', option: 'commandTimeoutMs' }),
      );
    },
  );

  it('the longest timeout a timer keeps waits for a take answered after 50 ms', async () => {
    // One take's batch reply: allowed, remaining, resetMs, retryAfterMs, then Redis time.
    const store = redisStore({
      client: answeringAfter(50, [1, 9, 100, 0, '1700000000000']),
      commandTimeoutMs: 2 ** 31 - 1,
    });
    const taking = store.take('k', limit, 1).then(
      (decision) => ({ decision }),
      (error: unknown) => ({ error }),
    );
    await vi.advanceTimersByTimeAsync(50);
    expect(await taking).toEqual({
      decision: { allowed: true, limit: 10, remaining: 9, resetMs: 100, retryAfterMs: 0 },
    });
  });
});
