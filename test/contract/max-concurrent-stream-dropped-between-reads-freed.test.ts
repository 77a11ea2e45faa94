/**
 * README, of `maxConcurrent`: "Read or cancel every such body: `createFetch` frees the place of one
 * dropped unread (and cancels it) only once the garbage collector finds it." The comment on the
 * read ahead in `untilBodyEnd` (faf5193): "Only the read's promise is kept (no reaction of this
 * stream's), so a pending read pins nothing: a body dropped while its server is silent is still
 * collected."
 *
 * A caller that gives up on a stream while a read of its own is pending — a timeout raced against
 * `reader.read()` (`Promise.race([reader.read(), timeout])`), a consumer dropped between events —
 * and never cancels it: the caller's read makes the stream call `pull`, which awaits the
 * transport's read; while the server is silent that read stays pending in the transport's stream
 * (kept alive by its connection), and the `pull`'s continuation holds the stream's controller,
 * hence the caller's stream. The body the finalization registry watches is never collected: with
 * `maxConcurrent: 1`, the key's next call waits for as long as the server stays silent (for ever
 * here). The same stream dropped after its read was answered (no read pending: only the read ahead's
 * promise is kept) is collected and its place freed, which the first test pins.
 *
 * A judgement call: the README's promise is worded for a body "dropped unread"; this one was read
 * in part. Without `maxConcurrent` undici does not cancel a locked body it collects either (its
 * connection stays open), but no place of Headway's is held then.
 *
 * Found on 2026-12-06 (session 26, a review of faf5193). Observed: through 100 rounds of
 * collection, the next call unanswered and the stream open (`{ nextAnswered: false, streamsOpen: 1 }`).
 * Left as a limit (README, of `maxConcurrent`): the stream must keep a pending read's `pull` alive
 * for a caller who still waits on it, and cannot tell one who dropped it. This file keeps the
 * case without a read pending (freed once collected).
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

/** `/stream` sends its head and one event, then nothing; `/json` answers at once. `open`: streams open now. */
async function oneEventThenSilentServer() {
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
    res.write('data: {"delta":"hel"}\n\n');
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

/** Reads the first event, then (`pending`) starts a read the server never answers; drops it all. */
async function dropAfterFirstEvent(
  fetch: ReturnType<typeof createFetch>,
  url: string,
  pending: boolean,
): Promise<void> {
  const reader = ((await fetch(`${url}/stream`)).body as ReadableStream<Uint8Array>).getReader();
  await reader.read();
  if (pending) reader.read().catch(() => {});
}

describe('maxConcurrent: a stream dropped after its first event while its server is silent', () => {
  for (const [name, pending] of [['no read pending when dropped', false]] as const) {
    it(`createFetch, ${name}: once collected, its place is freed and its stream closed`, async () => {
      const { url, open } = await oneEventThenSilentServer();
      const fetch = createFetch({ maxConcurrent: 1 });
      const aborts = new AbortController();
      cleanups.push(() => aborts.abort());
      await dropAfterFirstEvent(fetch, url, pending);
      let next: Response | null = null;
      void fetch(`${url}/json`, { signal: aborts.signal }).then(
        (response) => (next = response),
        () => {},
      );
      await collectUntil(() => next !== null && open.size === 0);

      expect({ nextAnswered: next !== null, streamsOpen: open.size }).toEqual({
        nextAnswered: true,
        streamsOpen: 0,
      });
    });
  }
});
