/**
 * A fleet learns together (issue #13), over real HTTP and a real Redis: three unconfigured clients
 * (no `rate`, no `burst`), each with its own Redis connection as separate processes would have,
 * share one store against one limited server. Each learns the server's policy from its headers and
 * books from the shared bucket at it, so together they pace as one client.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { redisStore } from '../../src/redis/index.js';
import { startServer } from '../../src/server/index.js';
import { redisUrl, uniquePrefix } from '../support/redis.js';

const connections: Redis[] = [];
afterEach(() => {
  for (const redis of connections.splice(0)) redis.disconnect();
});

async function connect(): Promise<Redis> {
  const redis = new Redis(redisUrl(), { enableOfflineQueue: false, lazyConnect: true });
  await redis.connect();
  connections.push(redis);
  return redis;
}

describe('three unconfigured clients sharing a Redis store', () => {
  it('learn the server policy and pace as one: at most the burst refused, never faster than the quota', async () => {
    const rate = 50;
    const burst = 10;
    const server = await startServer({ port: 0, rate, burst, keyHeader: 'x-api-key' });
    try {
      const prefix = uniquePrefix('fleet');
      const clients = await Promise.all(
        Array.from({ length: 3 }, async () =>
          createFetch({ store: redisStore({ client: await connect(), prefix }), expectedWorkers: 3 }),
        ),
      );
      const perClient = 50;
      const started = performance.now();
      const statuses = await Promise.all(
        clients.map(async (fetch) => {
          const seen: number[] = [];
          let next = 0;
          const caller = async () => {
            while (next++ < perClient) {
              const res = await fetch(`${server.url}/items`, { headers: { 'x-api-key': 'fleet' } });
              await res.arrayBuffer();
              seen.push(res.status);
            }
          };
          await Promise.all(Array.from({ length: 8 }, caller));
          return seen;
        }),
      );
      const elapsedMs = performance.now() - started;
      expect(statuses.flat().filter((s) => s !== 200)).toEqual([]);
      const { refused, allowed } = server.metrics();
      expect(allowed).toBe(3 * perClient);
      expect(refused).toBeLessThanOrEqual(burst);
      // The server admitted them all: no faster than its quota allows (a sanity bound, not a speed target).
      expect(elapsedMs).toBeGreaterThanOrEqual(((3 * perClient - burst) / rate) * 1000 * 0.9);
      // Every client learned the stated rate. Which model states it (the bucket's `policy` or the
      // window's `window`) depends on how answers interleave over real HTTP: the unit tests pin that.
      for (const fetch of clients)
        expect(fetch.stats()[0]!.learned).toMatchObject({ rate, unit: 'requests' });
    } finally {
      await server.close();
    }
  });

  it("one client's 429 closes the gate the others wait on", async () => {
    // A server that refuses the first call with a one-second retry hint and answers the rest.
    const seenAt: number[] = [];
    const http = createServer((_req, res) => {
      seenAt.push(performance.now());
      if (seenAt.length === 1) res.writeHead(429, { 'retry-after': '1' }).end();
      else res.writeHead(200).end('ok');
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const { port } = http.address() as AddressInfo;
    try {
      const prefix = uniquePrefix('fleet-gate');
      const [a, b] = await Promise.all(
        [0, 1].map(async () =>
          createFetch({ store: redisStore({ client: await connect(), prefix }), retries: 0 }),
        ),
      );
      const url = `http://127.0.0.1:${port}/`;
      expect((await a!(url)).status).toBe(429);
      const gateWaits: number[] = [];
      b!.onThrottle((event) => {
        if (event.reason === 'gate') gateWaits.push(event.waitMs);
      });
      expect((await b!(url)).status).toBe(200);
      // `b` never saw the 429: the shared gate held it until the hint ran out.
      expect(gateWaits.length).toBeGreaterThan(0);
      expect(seenAt[1]! - seenAt[0]!).toBeGreaterThanOrEqual(900);
    } finally {
      await new Promise((resolve) => http.close(resolve));
    }
  });
});
