/**
 * README "Client options": "Every call resolves with a `Response` or rejects with one of these (or,
 * once retries are spent or not allowed, the transport's own network error)"; the brief: "bad input
 * gets a clear, typed error". A transport (`fetch` option) that resolves with no answer at all — a
 * mock such as `vi.fn()` / `jest.fn()` with no implementation, or a wrapper that forgets `return` —
 * rejects the call with an `InvalidOptionError` naming `fetch` (it rejected with `undefined`
 * itself: no message, no stack), and is the caller's bug, not an outage: the key's gate stays open.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import type { FetchLike } from '../../src/client/options.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { isHeadwayError } from '../../src/errors.js';

describe('a transport that resolves with no Response', () => {
  it('rejects the call with an Error, not with `undefined`', async () => {
    const fetch = createFetch({
      clock: new ManualClock(),
      retries: 0,
      fetch: (async () => undefined) as unknown as FetchLike,
    });
    const settled = await fetch('https://api.test/items').then(
      () => ({ resolved: true }),
      (error: unknown) => ({
        typed: isHeadwayError(error, 'HEADWAY_INVALID_OPTION') && error.option === 'fetch',
        reason: String(error),
      }),
    );
    expect(settled).toEqual({
      typed: true,
      reason:
        'InvalidOptionError: Expected `fetch` to be a function that resolves with a Response, got `undefined` (undefined)',
    });
    expect(fetch.stats()[0]?.gate.open).toBe(true);
  });
});
