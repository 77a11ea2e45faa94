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
 * has asked keeps only its promise, so a pending read pins nothing. The second case (a review of
 * faf5193): a stream dropped after its first event, no read of the caller's pending, is freed the
 * same way. (Dropped while a read of the caller's is pending, it is not: README, a limit.)
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createFetch } from '../../src/index.js';
import { collectUntil, eventStreamServer } from '../support/event-stream-server.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Drops an answer of `/stream` unread, or (`firstEvent`) once its first event was read, no read of its pending. */
async function drop(fetch: ReturnType<typeof createFetch>, url: string, firstEvent: boolean): Promise<void> {
  const response = await fetch(`${url}/stream`);
  if (firstEvent) await (response.body as ReadableStream<Uint8Array>).getReader().read();
}

describe('maxConcurrent: a stream dropped while its server is silent', () => {
  for (const [name, server, firstEvent] of [
    ['unread, the server silent after its head', 'silent', false],
    ['after its first event, the server silent since', 'one', true],
  ] as const) {
    it(`createFetch, ${name}: once collected, its place is freed and its stream closed`, async () => {
      const { url, open } = await eventStreamServer(cleanups, server);
      const fetch = createFetch({ maxConcurrent: 1 });
      const aborts = new AbortController();
      cleanups.push(() => aborts.abort());
      // In a function of its own, so nothing here keeps the answer.
      await drop(fetch, url, firstEvent);
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

  it('createFetch without maxConcurrent: once collected, its stream is closed', async () => {
    const { url, open } = await eventStreamServer(cleanups, 'silent');
    const fetch = createFetch();
    const dropUnread = async () => void (await fetch(`${url}/stream`)).status;
    await dropUnread();
    await collectUntil(() => open.size === 0);
    expect(open.size).toBe(0);
  });
});
