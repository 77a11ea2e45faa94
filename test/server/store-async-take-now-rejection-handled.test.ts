import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { rateLimit } from '../../src/server/rate-limit.js';
import type { RateLimitStore } from '../../src/stores/store.js';

const turns = () => new Promise<void>((resolve) => setImmediate(resolve));

// README "Options": "When the store fails ... the request is admitted (open) or answered 503
// (closed) ... and metrics().storeErrors counts it"; a store that answers garbage is a store
// failure (test/server/store-garbage.test.ts). A custom store whose `takeNow` was written `async`
// (a JS store, or one wrapping a client) returns a promise: src/server/rate-limit.ts (`withPolicy`)
// reads it as "not a Decision" and answers open — but never handles the promise, so when the store
// is down its rejection is unhandled and, under Node's default, ends the process.
describe('a store whose takeNow returns a rejected promise', () => {
  const seen: unknown[] = [];
  const onUnhandled = (reason: unknown) => seen.push(reason);
  afterEach(() => {
    process.off('unhandledRejection', onUnhandled);
    seen.length = 0;
  });

  it('is a store failure answered open, with no unhandled rejection', async () => {
    process.on('unhandledRejection', onUnhandled);
    const store = {
      take: () => Promise.reject(new Error('ECONNREFUSED')),
      takeNow: async () => {
        throw new Error('ECONNREFUSED');
      },
      reserve: () => new Promise(() => {}),
      holdGate: () => new Promise(() => {}),
      gateWait: () => new Promise(() => {}),
    } as unknown as RateLimitStore;
    const limiter = rateLimit({ clock: new ManualClock(), store });
    const outcome = await limiter.check(new Request('http://api.test/'), { ip: 'a' });
    expect(outcome).toMatchObject({ allowed: true, status: 200, decision: undefined });
    expect(limiter.metrics().storeErrors).toBe(1);
    for (let i = 0; i < 3; i++) await turns();
    expect(seen).toEqual([]);
  });
});
