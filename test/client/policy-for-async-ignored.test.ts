/**
 * README "Client options": "One place resolves a key's options: defaults, then the client's, then
 * its host's entry, then `policyFor(key)`", `policyFor` being `(key) => Partial<options>`; a
 * name the table does not list "is an InvalidOptionError naming it, never silently its default".
 * On the server `policyFor` may return a Promise (`(key, request) => Policy | Promise<Policy>`), so
 * an `async` `policyFor` is an easy slip on the client. There its Promise is read as an options
 * object with no fields (`Object.entries(promise)` is empty): the key silently keeps the client's
 * defaults — here no rate at all — and the tier the user asked for (`rate: 1, burst: 1`) is never
 * applied, with no error. (`keyOptionsFor` in `src/client/options.ts` merges whatever truthy value
 * `policyFor` returns; a number is dropped the same way.)
 *
 * Fixed on 2026-12-06 (the fifth review round): `policyFor` returning a promise (or anything but
 * options or `undefined`) rejects the call with `HEADWAY_INVALID_OPTION` naming `policyFor(key)`.
 * What the text above describes is how it behaved before.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import type { KeyOptions } from '../../src/client/options.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { isHeadwayError } from '../../src/errors.js';

describe('createFetch with an async `policyFor`', () => {
  it('is a typed error or applies the tier, never silently the defaults', async () => {
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
    const settled: unknown[] = [];
    for (let i = 0; i < 3; i++)
      fetch('https://api.test/items').then(
        () => settled.push('answered'),
        (error: unknown) => settled.push(isHeadwayError(error) ? error.code : error),
      );
    await new Promise((resolve) => setImmediate(resolve));

    expect(settled.filter((s) => s !== 'answered' && typeof s !== 'string')).toEqual([]);
    expect(sent).toBeLessThanOrEqual(1);
  });
});
