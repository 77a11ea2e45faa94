/**
 * README: "a drop-in `fetch`"; "With `createFetch` the streamed answer is a new `Response` over
 * the transport's, with the same status, headers, `url`, `redirected` and `type`"; and "it counts
 * until its body ends, fails or is cancelled".
 *
 * The new `Response` is made with `new Response(body, { status, statusText, headers })`, whose
 * checks are stricter than what `fetch` returns from the network: a reason phrase of UTF-8 text
 * (`200 OK ✓`: obs-text, valid HTTP, which `fetch` reads as "OK ✓") is not a ByteString, so the
 * call rejects with a `TypeError` where `fetch` answers. And the place was taken for the stream
 * before the `Response` was made (`lane.openStream()`, then `untilBodyEnd`): nothing gives it back,
 * so with `maxConcurrent: 1` every later call of the key waits for good.
 *
 * Found on 2026-12-06 (session 26, a review of 86b73dc, which made event streams hold their
 * place). Fixed the same day: a response `new Response` cannot copy is returned as it is, its place
 * freed at once (as every answer's was before).
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createServer, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { createFetch } from '../../src/index.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A raw HTTP/1.1 server: each request is answered `200 OK ✓` (UTF-8), an event stream of one event. */
async function rawServer() {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    let seen = '';
    socket.on('data', (chunk: Buffer) => {
      // One answer per request head read (a GET has no body).
      seen += chunk.toString('latin1');
      const end = seen.indexOf('\r\n\r\n');
      if (end < 0) return;
      seen = seen.slice(end + 4);
      socket.write(
        Buffer.concat([
          Buffer.from('HTTP/1.1 200 OK ✓\r\n', 'utf8'),
          Buffer.from('content-type: text/event-stream\r\ncontent-length: 9\r\n\r\ndata: x\n\n', 'latin1'),
        ]),
      );
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  cleanups.push(() => {
    for (const socket of sockets) socket.destroy();
    server.close();
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** 'answered' once `call` settles, or 'still waiting' after `ms` (a hang, not a duration: a local answer takes a few ms). */
const settles = (call: Promise<unknown>, ms = 3000) =>
  Promise.race([
    call.then(
      () => 'answered' as const,
      () => 'answered' as const,
    ),
    sleep(ms).then(() => 'still waiting' as const),
  ]);

describe('maxConcurrent: an event stream whose status line `new Response` refuses', () => {
  it('fetch itself answers it (the server is valid HTTP)', async () => {
    const url = await rawServer();
    const response = await fetch(`${url}/a`);
    expect([response.status, response.statusText, await response.text()]).toEqual([
      200,
      'OK ✓',
      'data: x\n\n',
    ]);
  });

  it('createFetch answers it as fetch does', async () => {
    const url = await rawServer();
    const headway = createFetch({ maxConcurrent: 1 });
    const response = await headway(`${url}/a`);
    expect([response.status, response.statusText, await response.text()]).toEqual([
      200,
      'OK ✓',
      'data: x\n\n',
    ]);
  });

  it('createFetch: a call that failed so does not keep the key’s place', async () => {
    const url = await rawServer();
    const headway = createFetch({ maxConcurrent: 1 });
    await headway(`${url}/a`).then(
      (response) => response.text(),
      () => {},
    );
    const next = await settles(headway(`${url}/b`).then((response) => response.text()));
    expect(next).toBe('answered');
  });
});
