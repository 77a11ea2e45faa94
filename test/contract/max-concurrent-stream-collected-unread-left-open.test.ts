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
import { afterEach, describe, expect, it } from 'vitest';
import { createFetch } from '../../src/index.js';
import { collectUntil, eventStreamServer } from '../support/event-stream-server.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('maxConcurrent: a streamed answer dropped unread', () => {
  it('createFetch: once collected, its stream is closed, not only its place freed', async () => {
    const { url, open } = await eventStreamServer(cleanups, 'ticking');
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
    const { url, open } = await eventStreamServer(cleanups, 'ticking');
    const fetch = createFetch();
    const dropUnread = async () => void (await fetch(`${url}/stream`)).status;
    await dropUnread();
    await collectUntil(() => open.size === 0);
    expect(open.size).toBe(0);
  });
});
