/**
 * Redirects `fetch` itself refuses to follow, over real HTTP on 127.0.0.1: with `redirect: 'error'`,
 * or a 307 on a stream body (Fetch Standard, HTTP-redirect fetch: "If internalResponse's status is
 * not 303, request's body is non-null, and request's body's source is null, then return a network
 * error"). `fetch` rejects with `TypeError('fetch failed')` after one request that the server
 * answered: the server is up, and sending again gets the same redirect. The README retries "network
 * errors" and rides out "connection errors" only, and "a URL `fetch` refuses by itself … is not
 * retried": such a refusal must be neither retried nor taken for an outage of the key.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { runUntilSettled } from '../client/fake-server.js';
import { listen } from '../server/loopback.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A server that answers every request with a redirect; counts the requests it got. */
async function redirecting(status: number): Promise<{ url: string; received: () => number }> {
  let received = 0;
  const server = await listen(async (req, res) => {
    received++;
    for await (const _ of req) {
      // drain the request body
    }
    res.writeHead(status, { location: '/elsewhere' }).end();
  });
  cleanups.push(server.close);
  return { url: server.url, received: () => received };
}

describe('a redirect fetch refuses to follow', () => {
  it("redirect: 'error': the call is sent once, not retried as a network failure", async () => {
    const server = await redirecting(302);
    const clock = new ManualClock(0, Date.UTC(2026, 10, 30));
    const fetch = createFetch({ clock, random: () => 0.5 });
    const [result] = await runUntilSettled(clock, [fetch(`${server.url}/items`, { redirect: 'error' })], 100);
    expect(result?.status).toBe('rejected');
    expect((result as PromiseRejectedResult).reason).toBeInstanceOf(TypeError);
    expect(server.received()).toBe(1);
    expect(fetch.stats()[0]?.gate.reason).not.toBe('outage');
  });

  it("a 307 on a stream body: the server answered, the key's gate is not closed for an outage", async () => {
    const server = await redirecting(307);
    const clock = new ManualClock(0, Date.UTC(2026, 10, 30));
    const fetch = createFetch({ clock, random: () => 0.5 });
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"n":1}'));
        controller.close();
      },
    });
    const [result] = await runUntilSettled(
      clock,
      [fetch(`${server.url}/items`, { method: 'PUT', body, duplex: 'half' } as RequestInit)],
      100,
    );
    expect(result?.status).toBe('rejected');
    expect(server.received()).toBe(1);
    expect(fetch.stats()[0]?.gate.reason).not.toBe('outage');
  });
});
