/**
 * README, Client options: "`maxConcurrent` — calls of a key in flight at once, your bound"; and
 * "`maxConcurrent` is your bound on a key's calls in flight, whatever the server says" (TSDoc:
 * "Most calls of this key in flight at once"). A streamed answer (Server-Sent Events from an LLM
 * API) is a call the server is still working on, and a connection it still holds, until its body
 * ends: the bound is what keeps a key to N concurrent streams.
 *
 * Found on 2026-12-06 (the sixth review round): a call stopped counting as in flight when its
 * answer's head arrived, on both faces, so with `maxConcurrent: 1` a second call was sent while
 * the first answer was still streaming (the server had two open at once).
 *
 * Fixed on 2026-12-06 (session 26): an answer returned as an event stream holds its place until
 * its body ends, fails or is cancelled (or, with `createFetch`, is collected unread). Any other
 * answer frees its place at its head, as before: a caller may read it for its status alone.
 */
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request, fetch as undiciFetch } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { createFetch } from '../../src/index.js';
import { headwayInterceptor } from '../../src/undici/index.js';
import { collectUntil } from '../support/event-stream-server.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * An SSE server: each answer streams an event, then stays open until another request arrives (then
 * it ends at once) or `openMs` pass. Records the most answers open at once. `/json` answers JSON at
 * once; `/broken` streams an event, then its connection is destroyed.
 */
async function sseServer(openMs = 300) {
  const open = new Set<ServerResponse>();
  const stats = { maxOpen: 0, requests: 0 };
  const timers: NodeJS.Timeout[] = [];
  const server = createServer((req, res) => {
    stats.requests++;
    if (req.url === '/json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
      return;
    }
    // Another answer still streaming when this request arrives: it ends now (the overlap is counted).
    open.add(res);
    stats.maxOpen = Math.max(stats.maxOpen, open.size);
    for (const other of open) if (other !== res) other.end('data: done\n\n');
    res.on('close', () => open.delete(res));
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write('data: {"delta":"hel"}\n\n');
    if (req.url === '/broken') {
      timers.push(setTimeout(() => res.destroy(), 20));
      return;
    }
    timers.push(setTimeout(() => res.end('data: done\n\n'), openMs));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  server.on('connection', (socket) => cleanups.push(() => socket.destroy()));
  cleanups.push(() => {
    for (const timer of timers) clearTimeout(timer);
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, stats };
}

describe('maxConcurrent with streamed (SSE) answers', () => {
  it('createFetch: a second call waits for the first answer’s stream to end', async () => {
    const { url, stats } = await sseServer();
    const fetch = createFetch({ maxConcurrent: 1, fetch: undiciFetch as unknown as typeof globalThis.fetch });
    const texts = await Promise.all(['/a', '/b'].map(async (path) => (await fetch(`${url}${path}`)).text()));
    expect(texts).toHaveLength(2);
    expect(stats.requests).toBe(2);
    expect(stats.maxOpen).toBe(1);
  });

  it('headwayInterceptor: a second call waits for the first answer’s stream to end', async () => {
    const { url, stats } = await sseServer();
    const agent = new Agent();
    cleanups.push(() => agent.destroy());
    const dispatcher = agent.compose(headwayInterceptor({ maxConcurrent: 1 }));
    const texts = await Promise.all(
      ['/a', '/b'].map(async (path) => (await request(`${url}${path}`, { dispatcher })).body.text()),
    );
    expect(texts).toHaveLength(2);
    expect(stats.requests).toBe(2);
    expect(stats.maxOpen).toBe(1);
  });

  it('createFetch: a stream cancelled, or one that fails, frees its place', async () => {
    const { url, stats } = await sseServer(60_000);
    const fetch = createFetch({ maxConcurrent: 1, fetch: undiciFetch as unknown as typeof globalThis.fetch });
    const first = await fetch(`${url}/a`);
    await first.body?.cancel();
    const broken = await fetch(`${url}/broken`);
    await expect(broken.text()).rejects.toThrow();
    const last = await fetch(`${url}/json`);
    expect(await last.json()).toEqual({ ok: true });
    expect(stats.requests).toBe(3);
    expect(fetch.stats()[0]?.inFlight).toBe(0);
  });

  it('createFetch: a stream dropped unread frees its place once collected', async () => {
    const { url, stats } = await sseServer(60_000);
    const fetch = createFetch({ maxConcurrent: 1, fetch: undiciFetch as unknown as typeof globalThis.fetch });
    // In a function of its own, so nothing here keeps the answer.
    const dropUnread = async () => void (await fetch(`${url}/a`)).status;
    await dropUnread();
    let next: Response | null = null;
    void fetch(`${url}/json`).then((response) => (next = response));
    await collectUntil(() => next !== null);
    expect(next).not.toBeNull();
    expect(stats.requests).toBe(2);
  });

  it('createFetch: the streamed answer keeps what the transport’s said (status, headers, url)', async () => {
    const { url } = await sseServer();
    const fetch = createFetch({ maxConcurrent: 2, fetch: undiciFetch as unknown as typeof globalThis.fetch });
    const response = await fetch(`${url}/a`);
    expect(response.status).toBe(200);
    expect(response.ok).toBe(true);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.url).toBe(`${url}/a`);
    expect(response.redirected).toBe(false);
    expect(response.type).toBe('basic');
    expect(await response.text()).toBe('data: {"delta":"hel"}\n\ndata: done\n\n');
  });

  it('createFetch: an answer that is not a stream frees its place at its head (read for its status alone)', async () => {
    const { url, stats } = await sseServer();
    const fetch = createFetch({ maxConcurrent: 1, fetch: undiciFetch as unknown as typeof globalThis.fetch });
    const unread = await fetch(`${url}/json`);
    expect(unread.status).toBe(200); // its body never read nor cancelled
    const next = await fetch(`${url}/json`);
    expect(await next.json()).toEqual({ ok: true });
    expect(stats.requests).toBe(2);
    await unread.body?.cancel();
  });

  it('headwayInterceptor: a stream destroyed by its reader, or one that fails, frees its place', async () => {
    const { url, stats } = await sseServer(60_000);
    const agent = new Agent();
    cleanups.push(() => agent.destroy());
    const dispatcher = agent.compose(headwayInterceptor({ maxConcurrent: 1 }));
    const first = await request(`${url}/a`, { dispatcher });
    first.body.destroy();
    const broken = await request(`${url}/broken`, { dispatcher });
    await expect(broken.body.text()).rejects.toThrow();
    const last = await request(`${url}/json`, { dispatcher });
    expect(await last.body.json()).toEqual({ ok: true });
    expect(stats.requests).toBe(3);
  });
});
