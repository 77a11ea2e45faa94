/**
 * conventions.md 4 and README ("bad options (at construction)" → `InvalidOptionError`): the `store`
 * option is validated when the client is made (src/client/options.ts: `resolveClientOptions`), but
 * only `reserve` and `holdGate` are checked. The client also calls `gateWait` on every booking
 * (src/client/shared-quota.ts: `book`), so a store without it is accepted, and every call then
 * counts as a store failure: the key runs degraded on the fallback for good, silently.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { isHeadwayError } from '../../src/errors.js';
import { memoryStore } from '../../src/stores/memory.js';
import type { RateLimitStore } from '../../src/stores/store.js';
import { fakeFetch } from './fake-server.js';

describe('the store option', () => {
  it('is refused at construction with HEADWAY_INVALID_OPTION when it has no gateWait', () => {
    const clock = new ManualClock();
    const server = fakeFetch(clock, () => ({ status: 200 }));
    const inner = memoryStore({ clock });
    const store = {
      take: inner.take,
      reserve: inner.reserve,
      holdGate: inner.holdGate,
    } as unknown as RateLimitStore;
    let error: unknown;
    try {
      createFetch({ fetch: server.fetch, clock, store, rate: 10, burst: 20 });
    } catch (e) {
      error = e;
    }
    expect(isHeadwayError(error, 'HEADWAY_INVALID_OPTION')).toBe(true);
    expect((error as Error).message).toContain('store');
  });
});
