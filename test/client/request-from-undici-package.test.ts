/**
 * README, Client options: `fetch` is "the transport (undici's `fetch`, a custom `dispatcher`,
 * msw)", and `createFetch` returns "`fetch`'s signature" (`string | URL | Request`). A `Request`
 * made by undici's own class (the package's `Request`, what code written against undici's `fetch`
 * builds) is not `instanceof` the global `Request`, so `describeRequest` reads it as a string,
 * `"[object Request]"`, and the call rejects with `TypeError: Invalid URL` before the transport sees
 * it — where undici's `fetch` itself takes that Request as it is.
 *
 * Fixed on 2026-12-06 (the fifth review round): a `Request` is recognised by its shape (a string
 * `url` and `method`, and `headers`), whichever class made it. What the text above describes is how
 * it behaved before.
 */
import { Request as UndiciRequest } from 'undici';
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';

describe("a Request made by undici's own class", () => {
  it('reaches the transport, keyed by its origin', async () => {
    const clock = new ManualClock(0, Date.UTC(2026, 10, 30));
    const seen: string[] = [];
    const transport = async (input: unknown) => {
      seen.push((input as { url: string }).url);
      return new Response('ok', { status: 200 });
    };
    const fetch = createFetch({ fetch: transport as never, clock });
    const request = new UndiciRequest('https://api.example.com/v1/items', { method: 'GET' });
    const result = await fetch(request as unknown as Request).then(
      (response) => response.status,
      (error: unknown) => `${(error as Error).name}: ${(error as Error).message}`,
    );
    expect({ result, seen, keys: fetch.stats().map((s) => s.key) }).toEqual({
      result: 200,
      seen: ['https://api.example.com/v1/items'],
      keys: ['https://api.example.com'],
    });
  });
});
