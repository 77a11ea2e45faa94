/**
 * README "Client options": `key` is `(req) => string`, "which quota a request belongs to", and the
 * brief promises bad input "gets a clear, typed error and loses nothing". The server limiter
 * refuses a key that is not a string (`HEADWAY_INVALID_OPTION` naming `key()`, "never one shared
 * quota"), and the client refuses an `async` cost (`cost-async-refused.test.ts`); the client's
 * `key` result is never checked. An `async` key — `async (req) => tenantOf(await ...)`, an easy
 * slip — hands back a new Promise per call, and each Promise becomes a key of its own: every call
 * gets a fresh lane, so `rate: 1, burst: 1` lets every call go at once (nothing is paced, nothing
 * is refused, nothing is reported), and `stats()` lists Promises as keys.
 *
 * Fixed on 2026-12-06 (the fifth review round): a `key` that returns anything but a string (a
 * promise, `null`) rejects the call with `HEADWAY_INVALID_OPTION` naming `key()`. What the text
 * above describes is how it behaved before.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import type { RequestDescription } from '../../src/client/request.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { isHeadwayError } from '../../src/errors.js';

describe('createFetch with an async `key`', () => {
  it('does not let every call bypass the configured rate (typed error, or one quota)', async () => {
    const clock = new ManualClock();
    let sent = 0;
    const fetch = createFetch({
      clock,
      rate: 1,
      burst: 1,
      fetch: async () => {
        sent++;
        return new Response('ok');
      },
      key: (async () => 'tenant-a') as unknown as (request: RequestDescription) => string,
    });
    const settled: unknown[] = [];
    for (let i = 0; i < 3; i++)
      fetch('https://api.test/items').then(
        () => settled.push('answered'),
        (error: unknown) => settled.push(isHeadwayError(error) ? error.code : error),
      );
    await new Promise((resolve) => setImmediate(resolve));

    // Every rejection, if any, is a typed Headway error.
    expect(settled.filter((s) => s !== 'answered' && typeof s !== 'string')).toEqual([]);
    expect(sent).toBeLessThanOrEqual(1);
    expect(fetch.stats().every((s) => typeof s.key === 'string')).toBe(true);
  });
});
