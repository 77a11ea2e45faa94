/**
 * The caller's own request body fails mid-upload (a `ReadableStream` whose source errors: a file
 * read error, a producer that gives up), over real HTTP on 127.0.0.1. `fetch` rejects with
 * `TypeError('fetch failed', { cause })`, `cause` being the stream's own error. The server is up and
 * did nothing wrong: the README's outage handling is for "5xx and connection errors", so the key's
 * gate must not close with an outage backoff that holds every other call of the origin.
 */
import { Readable } from 'node:stream';
import { Agent, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { headwayInterceptor } from '../../src/undici/index.js';
import { runUntilSettled } from '../client/fake-server.js';
import { listen } from '../server/loopback.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A server that reads the whole body before answering; counts the requests it got. */
async function reading(): Promise<{ url: string; requests: () => number }> {
  let requests = 0;
  const server = await listen(async (req, res) => {
    requests++;
    try {
      for await (const _ of req) {
        // drain the request body
      }
      res.writeHead(200).end('ok');
    } catch {
      res.destroy();
    }
  });
  cleanups.push(server.close);
  return { url: server.url, requests: () => requests };
}

describe("a request body stream that errors (the caller's fault, not the server's)", () => {
  it('createFetch: rejects the call without closing the key’s gate for an outage', async () => {
    const server = await reading();
    const clock = new ManualClock(0, Date.UTC(2026, 10, 30));
    const fetch = createFetch({ clock, random: () => 0.5 });
    const fileError = new Error('EIO: i/o error, read');
    let sent = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (!sent) {
          sent = true;
          controller.enqueue(new TextEncoder().encode('first part of the upload'));
        } else controller.error(fileError);
      },
    });
    const [result] = await runUntilSettled(
      clock,
      [fetch(`${server.url}/upload`, { method: 'PUT', body, duplex: 'half' } as RequestInit)],
      100,
    );
    expect(result?.status).toBe('rejected');
    expect(((result as PromiseRejectedResult).reason as Error).cause).toBe(fileError);
    expect(server.requests()).toBeLessThanOrEqual(1); // sent once at most (a stream is never replayed)
    expect(fetch.stats()[0]?.gate.reason).not.toBe('outage');
  });

  it('headwayInterceptor: undici.request with a Readable body that errors, the same', async () => {
    const server = await reading();
    const clock = new ManualClock(0, Date.UTC(2026, 10, 30));
    const interceptor = headwayInterceptor({ clock, random: () => 0.5 });
    const agent = new Agent();
    cleanups.push(() => agent.close());
    const dispatcher = agent.compose(interceptor);
    const fileError = new Error('EIO: i/o error, read');
    let sent = false;
    const body = new Readable({
      read() {
        if (!sent) {
          sent = true;
          this.push('first part of the upload');
        } else this.destroy(fileError);
      },
    });
    const [result] = await runUntilSettled(
      clock,
      [request(`${server.url}/upload`, { dispatcher, method: 'PUT', body })],
      100,
    );
    expect(result?.status).toBe('rejected');
    expect(server.requests()).toBeLessThanOrEqual(1); // sent once at most (a stream is never replayed)
    expect(interceptor.stats()[0]?.gate.reason).not.toBe('outage');
  });
});
