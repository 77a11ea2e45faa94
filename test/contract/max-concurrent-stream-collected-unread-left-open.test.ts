/**
 * README: "it counts until its body ends, fails or is cancelled, on every face — with
 * `maxConcurrent: 4`, at most four streams are open at once. Read or cancel every such body:
 * `createFetch` frees the place of one dropped unread only once the garbage collector finds it."
 *
 * Freed, but not closed: `createFetch` reads the transport's body through a reader of its own, so
 * that body is locked, and `fetch`'s own clean-up of a response collected unread (undici cancels
 * its body, which closes the connection) passes over a locked body. When the collector finds the
 * dropped answer, Headway gives its place to the next call, and the stream stays open at the
 * server, its connection held, for as long as the server streams (for ever, for an endless one):
 * with `maxConcurrent: 1` the server has two streams open, and one more per answer so dropped.
 * Without `maxConcurrent` (no wrapper) the same answer is cancelled once collected, which the last
 * test pins.
 *
 * Found on 2026-12-06 (session 26, a review of 86b73dc, which made event streams hold their
 * place). Fixed the same day: a streamed answer collected unread also cancels the transport's body.
 */
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep, setImmediate as turn } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { createFetch } from '../../src/index.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** `/stream` streams an event every 20 ms until its client goes; `/json` answers at once. `open`: streams open now. */
async function sseServer() {
  const open = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    if (req.url === '/json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
      return;
    }
    open.add(res);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write('data: {"delta":"hel"}\n\n');
    const ticks = setInterval(() => res.write('data: {"delta":"lo"}\n\n'), 20);
    res.on('close', () => {
      clearInterval(ticks);
      open.delete(res);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  cleanups.push(() => {
    server.closeAllConnections();
    server.close();
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, open };
}

/** Collects garbage until `done()` holds, 100 rounds at most. */
async function collectUntil(done: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !done(); i++) {
    gc();
    await turn();
    await sleep(10);
  }
}

describe('maxConcurrent: a streamed answer dropped unread', () => {
  it('createFetch: once collected, its stream is closed, not only its place freed', async () => {
    const { url, open } = await sseServer();
    const fetch = createFetch({ maxConcurrent: 1 });
    // In a function of its own, so nothing here keeps the answer.
    const dropUnread = async () => void (await fetch(`${url}/stream`)).status;
    await dropUnread();
    let next: Response | null = null;
    void fetch(`${url}/json`).then((response) => (next = response));
    await collectUntil(() => next !== null);
    expect(next).not.toBeNull(); // its place was freed once collected
    await collectUntil(() => open.size === 0);

    expect(open.size).toBe(0);
  });

  it('createFetch without maxConcurrent: once collected, its stream is closed', async () => {
    const { url, open } = await sseServer();
    const fetch = createFetch();
    const dropUnread = async () => void (await fetch(`${url}/stream`)).status;
    await dropUnread();
    await collectUntil(() => open.size === 0);
    expect(open.size).toBe(0);
  });
});
