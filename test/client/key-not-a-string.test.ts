/**
 * README, Client options: `key` is "`(req) => string`": "which quota a request belongs to". The
 * server's `key` refuses anything but a string with a typed `HEADWAY_INVALID_OPTION` ("never one
 * shared quota", test/server/key-not-a-string.test.ts); the client's takes whatever it returns as
 * the lane's Map key. So an `async` key (a tenant looked up somewhere) returns a new Promise per
 * call, and each call gets a lane of its own: a 429 with `Retry-After` closes no gate for the
 * tenant's next call, which goes at once (and every call adds a key to `stats()`, keyed
 * `[object Promise]`). A key that returns `null` (a header that is missing) puts those calls in one
 * quota keyed `null`, reported as a key in `stats()` and events typed `string`.
 *
 * An `async` `policyFor` was read as options with no fields: the tier asked for silently never applied.
 *
 * Fixed on 2026-12-06 (the fifth review round): a `key` that returns anything but a string, or a
 * `policyFor` that returns anything but options or `undefined`, rejects the call with
 * `HEADWAY_INVALID_OPTION` naming `key()` / `policyFor(key)`. What the text above describes is how
 * it behaved before.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import type { KeyOptions } from '../../src/client/options.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { isHeadwayError } from '../../src/errors.js';
import { fakeFetch } from './fake-server.js';

describe('a client `key` or `policyFor` that returns something other than it must', () => {
  it('an async key: a 429 with Retry-After still holds the same tenant’s next call', async () => {
    const clock = new ManualClock(0, Date.UTC(2026, 10, 30));
    const { fetch: transport, seen } = fakeFetch(clock, () => ({
      status: 429,
      headers: { 'retry-after': '30' },
    }));
    const fetch = createFetch({
      fetch: transport,
      clock,
      retries: 0,
      key: (async () => 'tenant-a') as unknown as (req: unknown) => string,
    });
    const settle = (p: Promise<Response>) =>
      p.then(
        () => 'answered',
        (e: unknown) => e,
      );
    const first = settle(fetch('https://api.example.com/a'));
    await clock.advance(0);
    const second = settle(fetch('https://api.example.com/b'));
    await clock.advance(0);
    // Either refused (typed) or held by the gate for 30 s: never a second request at t = 0.
    expect(seen.length).toBeLessThanOrEqual(1);
    await clock.advance(60_000);
    await Promise.all([first, second]);
  });

  it('a key that returns null rejects the call with a typed error, not a quota named null', async () => {
    const clock = new ManualClock(0, Date.UTC(2026, 10, 30));
    const { fetch: transport } = fakeFetch(clock, () => ({ status: 200 }));
    const fetch = createFetch({
      fetch: transport,
      clock,
      key: (req) => req.headers.get('x-tenant') as string,
    });
    const settled = await fetch('https://api.example.com/a').then(
      () => ({ sentUnderKey: fetch.stats().map((s) => s.key as unknown) }),
      (error: unknown) => ({ typedError: isHeadwayError(error, 'HEADWAY_INVALID_OPTION') }),
    );
    expect(settled).toEqual({ typedError: true });
  });

  it('an async `policyFor` rejects every call with a typed error, sending nothing', async () => {
    const clock = new ManualClock();
    let sent = 0;
    const fetch = createFetch({
      clock,
      fetch: async () => {
        sent++;
        return new Response('ok');
      },
      policyFor: (async () => ({ rate: 1, burst: 1 })) as unknown as (key: string) => Partial<KeyOptions>,
    });
    const codes = await Promise.all(
      [1, 2, 3].map(() =>
        fetch('https://api.test/items').then(
          () => 'answered',
          (error: unknown) => (isHeadwayError(error) ? error.code : error),
        ),
      ),
    );
    expect({ codes, sent }).toEqual({ codes: Array(3).fill('HEADWAY_INVALID_OPTION'), sent: 0 });
  });
});
