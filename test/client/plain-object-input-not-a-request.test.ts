/**
 * README "Client options": calls "take what `fetch` takes: a `Request` of any implementation"; a
 * URL `fetch` refuses by itself "is not retried … those are the caller's, and close no gate".
 * src/client/request.ts `isRequest` reads a `Request` "by its shape, as `fetch` reads it".
 *
 * `fetch` does not read a plain object by its shape: `fetch({ url, method, headers })` (a user's
 * request config object passed by mistake) is `String(input)`, "[object Object]", and rejects with
 * `TypeError: Failed to parse URL`, nothing sent. Headway (before 2026-12-06 it rejected at once,
 * too) now takes such an object for a `Request`: it books the call under the key of the object's
 * `url` (a real origin), hands it to the transport, and reads fetch's `TypeError` as a network
 * failure: the origin's gate closes as an *outage*, and the caller's next, valid call to that
 * origin is held behind the backoff.
 *
 * Fixed on 2026-12-06 (a review of the day's changes): a `Request` of another class is recognised
 * by `clone` and `headers.get` too, which a plain object lacks: it is refused as `fetch` refuses
 * it. What the text above describes is how it behaved before.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import type { FetchLike } from '../../src/client/options.js';
import { ManualClock } from '../../src/core/manual-clock.js';

describe('a plain { url, method, headers } object passed as the input', () => {
  it('is refused as fetch refuses it, and closes no gate on the origin its url names', async () => {
    const clock = new ManualClock(0, Date.UTC(2026, 10, 30));
    // The transport is Node's own fetch for the object (it fails before any network), and a
    // stub answer for a string URL.
    const transport = ((input: unknown, init?: RequestInit) =>
      typeof input === 'string'
        ? Promise.resolve(new Response('ok'))
        : globalThis.fetch(input as Request, init)) as FetchLike;
    const fetch = createFetch({ clock, fetch: transport });
    const config = {
      url: 'https://api.example.com/items',
      method: 'GET',
      headers: { accept: 'application/json' },
    };

    const first = await fetch(config as unknown as Request).then(
      () => 'resolved',
      (error: unknown) => (error as Error).name,
    );
    expect(first).toBe('TypeError'); // as plain fetch: this part holds

    const waits: string[] = [];
    fetch.onThrottle((e) => waits.push(`${e.reason} ${Math.round(e.waitMs)}ms`));
    const gate = fetch.stats().find((s) => s.key === 'https://api.example.com')?.gate;
    // ['outage 50ms']
    expect(gate?.open ?? true).toBe(true);
    const next = fetch('https://api.example.com/items');
    await clock.advance(0);
    await clock.advance(1000);
    expect((await next).status).toBe(200);
    expect(waits).toEqual([]);
  });
});
