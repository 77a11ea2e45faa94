/**
 * README, Client options: "`maxConcurrent` | number | `Infinity` | calls of a key in flight at
 * once, your bound; an answer streamed as Server-Sent Events (`text/event-stream`) counts until
 * its body ends"; and, of fleets: "Requests booked or on their way escape the spacing ... So the
 * fleet keeps at most the burst less a quarter (at least 2) booked or in flight, each process its
 * share (`(burst − margin) / expectedWorkers`, at least 1 ...). Against a far-away server this
 * caps a process at share ÷ round-trip time".
 *
 * The fleet's in-flight share bounds requests not yet answered (they escape the spacing); a stream
 * whose head has arrived was counted by the server already. Since streams hold their place until
 * their body ends, they also hold the fleet's share when no `maxConcurrent` is set
 * (`Pacer.boundsInFlight` is true for a share), so a fleet that streams (an LLM API with a
 * configured `rate`, `store` set) is capped at share ÷ stream length: with `rate: 100, burst: 10,
 * expectedWorkers: 2` each process keeps 4 streams open (`(10 − 2) / 2`), whatever the rate
 * allows; with OpenAI's 500 RPM (`rate: 500 / 60`, burst 8) and four workers, one stream per
 * process, one call per stream length (10–30 s for a completion).
 *
 * Found on 2026-12-06 (session 26, a review of 86b73dc, which made event streams hold their
 * place). Fixed the same day: open streams hold places of `maxConcurrent` only, never of a fleet's
 * in-flight share (which bounds calls not answered yet).
 */
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createFetch } from '../../src/index.js';
import { memoryStore } from '../../src/stores/memory.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const PER_CLIENT = 8;

/**
 * An SSE server whose streams stay open until `expected` requests have arrived (then all end at
 * once), or 3 s pass (so a client that holds its calls back still finishes). Records the most
 * streams open at once.
 */
async function sseServer(expected: number) {
  const open = new Set<ServerResponse>();
  const stats = { maxOpen: 0, requests: 0 };
  const timers: NodeJS.Timeout[] = [];
  const server = createServer((_req, res) => {
    stats.requests++;
    open.add(res);
    stats.maxOpen = Math.max(stats.maxOpen, open.size);
    res.on('close', () => open.delete(res));
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write('data: {"delta":"hel"}\n\n');
    if (stats.requests >= expected) for (const other of open) other.end('data: [DONE]\n\n');
    else timers.push(setTimeout(() => res.end('data: [DONE]\n\n'), 3000));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  cleanups.push(() => {
    for (const timer of timers) clearTimeout(timer);
    server.closeAllConnections();
    server.close();
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, stats };
}

describe('a fleet without maxConcurrent and streamed answers', () => {
  it('two processes sharing a store keep every stream open at once: no maxConcurrent bounds them', async () => {
    const { url, stats } = await sseServer(2 * PER_CLIENT);
    const store = memoryStore();
    const options = { store, rate: 100, burst: 10, expectedWorkers: 2 };
    const clients = [createFetch(options), createFetch(options)];
    const texts = await Promise.all(
      clients.flatMap((fetch) =>
        Array.from({ length: PER_CLIENT }, async (_, i) => (await fetch(`${url}/s${i}`)).text()),
      ),
    );
    expect(texts).toHaveLength(2 * PER_CLIENT);
    expect(stats.requests).toBe(2 * PER_CLIENT);

    expect(stats.maxOpen).toBe(2 * PER_CLIENT);
  });
});
