/**
 * README, of `maxConcurrent`: "Read or cancel every such body: `createFetch` frees the place of one
 * dropped unread (and cancels it) only once the garbage collector finds it." TSDoc of
 * `untilBodyEnd`: "`close` called ... once its body is collected unread (the transport's body is
 * then cancelled, so the server's stream ends too) ... (a body nobody reads holds one chunk at
 * most)".
 *
 * The body reads one chunk ahead of its caller (add7e91): its `pull` runs as soon as the answer is
 * made, and waits on the transport's reader for a chunk. While the server sends nothing, that read
 * is pending in the transport's stream, which its connection keeps alive, and the read's
 * continuation holds the caller's stream (its controller): the stream the finalization registry
 * watches can never be collected. An event stream dropped unread whose server is silent after its
 * head — a notification stream between events, an LLM still before its first token (minutes for a
 * reasoning model), a proxy that flushed the head — keeps its place of `maxConcurrent` and its
 * connection for as long as the server stays silent: with `maxConcurrent: 1`, the key's next call
 * waits. Before add7e91 (no read-ahead) the same answer was collected and its place freed; without
 * `maxConcurrent` (no wrapper) undici's own clean-up cancels it, which the last test pins.
 *
 * Found on 2026-12-06 (session 26, a review of add7e91).
 *
 * Fixed the same day: nothing is read before the caller asks, and the read ahead once it
 * has asked keeps only its promise, so a pending read pins nothing.
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

/** `/stream` sends its head and then nothing; `/json` answers at once. `open`: streams open now. */
async function silentSseServer() {
  const open = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    if (req.url === '/json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
      return;
    }
    open.add(res);
    res.on('close', () => open.delete(res));
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.flushHeaders();
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

describe('maxConcurrent: a stream dropped unread while its server is silent', () => {
  it('createFetch: once collected, its place is freed and its stream closed', async () => {
    const { url, open } = await silentSseServer();
    const fetch = createFetch({ maxConcurrent: 1 });
    const aborts = new AbortController();
    cleanups.push(() => aborts.abort());
    // In a function of its own, so nothing here keeps the answer.
    const dropUnread = async () => void (await fetch(`${url}/stream`)).status;
    await dropUnread();
    let next: Response | null = null;
    void fetch(`${url}/json`, { signal: aborts.signal }).then(
      (response) => (next = response),
      () => {},
    );
    await collectUntil(() => next !== null && open.size === 0);

    // (open.size 1) through 100 rounds of collection.
    expect({ nextAnswered: next !== null, streamsOpen: open.size }).toEqual({
      nextAnswered: true,
      streamsOpen: 0,
    });
  });

  it('createFetch without maxConcurrent: once collected, its stream is closed', async () => {
    const { url, open } = await silentSseServer();
    const fetch = createFetch();
    const dropUnread = async () => void (await fetch(`${url}/stream`)).status;
    await dropUnread();
    await collectUntil(() => open.size === 0);
    expect(open.size).toBe(0);
  });
});
