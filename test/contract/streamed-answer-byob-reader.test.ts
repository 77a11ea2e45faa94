/**
 * README: "a drop-in `fetch`"; and "With `createFetch` the streamed answer is a new `Response`
 * over the transport's, with the same status, headers, `url`, `redirected` and `type`". The Fetch
 * standard makes every body a byte stream ("set up with byte reading support"), and Node's `fetch`
 * and undici's give one: `response.body.getReader({ mode: 'byob' })` reads it into the caller's
 * own buffer.
 *
 * With `maxConcurrent` set, an event stream's answer is a new `Response` over a plain
 * `ReadableStream` (no `type: 'bytes'`), so the same code throws `TypeError
 * [ERR_INVALID_ARG_VALUE]: The argument 'stream' must be a byte stream` — on event streams only,
 * and only once a key bounds its calls in flight. Without `maxConcurrent` it reads, which the
 * last test pins.
 *
 * Found on 2026-12-06 (session 26, a review of 86b73dc, which made event streams hold their
 * place). Fixed the same day: the caller's body is a byte stream (chunks copied in).
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createFetch } from '../../src/index.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const EVENTS = 'data: {"delta":"hel"}\n\ndata: [DONE]\n\n';

async function sseServer() {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(EVENTS);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  cleanups.push(() => {
    server.closeAllConnections();
    server.close();
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Reads `body` to its end with a BYOB reader into 1 KiB buffers of the caller's. */
async function readByob(body: ReadableStream<Uint8Array>): Promise<string> {
  const reader = body.getReader({ mode: 'byob' });
  const decoder = new TextDecoder();
  let text = '';
  for (let i = 0; i < 100; i++) {
    const { done, value } = await reader.read(new Uint8Array(1024));
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  return text;
}

describe('createFetch: a streamed answer’s body is a byte stream, as fetch’s is', () => {
  it('with maxConcurrent: a BYOB reader reads the event stream', async () => {
    const url = await sseServer();
    const fetch = createFetch({ maxConcurrent: 2 });
    const response = await fetch(`${url}/a`);
    expect(await readByob(response.body!)).toBe(EVENTS);
  });

  it('without maxConcurrent: a BYOB reader reads the event stream', async () => {
    const url = await sseServer();
    const fetch = createFetch();
    const response = await fetch(`${url}/a`);
    expect(await readByob(response.body!)).toBe(EVENTS);
  });
});
