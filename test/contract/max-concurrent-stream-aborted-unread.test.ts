/**
 * README, Client options: "`maxConcurrent` — calls of a key in flight at once, your bound; an
 * answer streamed as Server-Sent Events (`text/event-stream`) counts until its body ends"; and
 * "it counts until its body ends, fails or is cancelled, on every face". TSDoc of
 * `CallContext.attemptSignal`: "The caller's own signal stays linked afterwards, so aborting it
 * still cancels the body of the Response the call returned, as with plain `fetch`".
 *
 * Aborting the call's signal is how a `fetch` caller stops a stream (a Stop button, an agent that
 * has read enough): the transport's body fails at once and its connection closes. With
 * `createFetch` the caller holds a new `Response` over the transport's, whose body notices the
 * failure only when it is read again: a caller who aborted and reads no more (it keeps the
 * answer, say in a UI's state) keeps the key's place for good, and the key's next call waits
 * although the server closed the stream. The same when the connection fails while the body is
 * unread. The interceptor frees the place at once (undici reports the failure), which the last
 * test pins.
 *
 * Found on 2026-12-06 (session 26, a review of 86b73dc, which made event streams hold their
 * place). Fixed the same day: the place is freed when the transport's body is over (`reader.closed`),
 * read or not.
 */
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { createFetch } from '../../src/index.js';
import { headwayInterceptor } from '../../src/undici/index.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * `/stream` streams an event every 20 ms until its client goes (`/reset`: its connection is
 * destroyed after the first event); `/json` answers at once. `closed` resolves when a stream's
 * connection has closed at the server.
 */
async function sseServer() {
  let closedOne: () => void = () => {};
  const closed = () => new Promise<void>((resolve) => (closedOne = resolve));
  const server = createServer((req, res: ServerResponse) => {
    if (req.url === '/json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write('data: {"delta":"hel"}\n\n');
    const ticks = setInterval(() => res.write('data: {"delta":"lo"}\n\n'), 20);
    if (req.url === '/reset') setTimeout(() => res.destroy(), 20);
    res.on('close', () => {
      clearInterval(ticks);
      closedOne();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  cleanups.push(() => {
    server.closeAllConnections();
    server.close();
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, closed };
}

/** 'answered' once `call` settles, or 'still waiting' after `ms` (a hang, not a duration: a local answer takes a few ms). */
const settles = (call: Promise<unknown>, ms = 3000) =>
  Promise.race([call.then(() => 'answered' as const), sleep(ms).then(() => 'still waiting' as const)]);

describe('maxConcurrent: a stream aborted, or failed, while its body is unread', () => {
  it('createFetch: aborting the call’s signal mid-stream frees its place', async () => {
    const { url, closed } = await sseServer();
    const fetch = createFetch({ maxConcurrent: 1 });
    const controller = new AbortController();
    const first = await fetch(`${url}/stream`, { signal: controller.signal });
    const streamClosed = closed();
    controller.abort();
    await streamClosed; // the server has closed the stream: nothing of it is open any more

    const next = await settles(fetch(`${url}/json`));
    expect(next).toBe('answered');
    expect(first.status).toBe(200); // the caller still holds its answer
  });

  it('createFetch: a stream whose connection fails while its body is unread frees its place', async () => {
    const { url, closed } = await sseServer();
    const fetch = createFetch({ maxConcurrent: 1 });
    const streamClosed = closed();
    const first = await fetch(`${url}/reset`);
    await streamClosed;

    const next = await settles(fetch(`${url}/json`));
    expect(next).toBe('answered');
    await expect(first.text()).rejects.toThrow();
  });

  it('headwayInterceptor: aborting the call’s signal mid-stream frees its place', async () => {
    const { url, closed } = await sseServer();
    const agent = new Agent();
    cleanups.push(() => agent.destroy());
    const dispatcher = agent.compose(headwayInterceptor({ maxConcurrent: 1 }));
    const controller = new AbortController();
    const first = await request(`${url}/stream`, { dispatcher, signal: controller.signal });
    const streamClosed = closed();
    controller.abort();
    await streamClosed;

    expect(await settles(request(`${url}/json`, { dispatcher }))).toBe('answered');
    expect(first.statusCode).toBe(200);
  });
});
