/**
 * README, "Pace code you don't own": "Or compose the interceptor onto a dispatcher of your own"
 * (`Client`, `Pool`, `Agent`); "Backpressure holds": an answer kept for a retry is read to its end
 * while its body is short, so its connection is free for other calls while the retry waits.
 *
 * On a `Client` (one connection), two GETs go at once; the first is answered 429 `Retry-After: 1`.
 * The retry waits for the second call's answer (one probe after a gate), which needs the only
 * connection: when the kept answer was paused on it at once, neither could move and both calls
 * hung for good.
 */

import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { headwayInterceptor } from '../../src/undici/index.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('headwayInterceptor on a Client (one connection)', () => {
  it('a 429 kept for its retry does not hold the connection the other queued call needs: both calls finish', async () => {
    const seen: string[] = [];
    const server = createServer((req, res) => {
      const n = seen.push(req.url ?? '') - 1;
      if (n === 0) res.writeHead(429, { 'retry-after': '1' }).end('slow down');
      else res.writeHead(200).end('ok');
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    server.on('connection', (socket) => cleanups.push(() => socket.destroy()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const clock = new ManualClock(0, Date.UTC(2026, 10, 30));
    const interceptor = headwayInterceptor({ clock, random: () => 0 });
    const client = new Client(url);
    // `destroy`, not `close`: a close waits for the hung calls.
    cleanups.push(() => client.destroy());
    const dispatcher = client.compose(interceptor);

    const settled: Array<string | null> = [null, null];
    ['/a', '/b'].forEach((path, i) => {
      request(`${url}${path}`, { dispatcher }).then(
        async (r) => (settled[i] = `${r.statusCode} ${await r.body.text()}`),
        (error: unknown) => (settled[i] = `error ${String(error)}`),
      );
    });
    // Ten seconds on the manual clock (ten times the Retry-After), with real time for loopback I/O
    // between steps; stops as soon as both calls have settled.
    for (let step = 0; step < 200 && settled.includes(null); step++) {
      await clock.advance(50);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }

    expect(settled).toEqual(['200 ok', '200 ok']);
    expect(seen).toHaveLength(3);
  });
});
