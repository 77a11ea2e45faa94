/**
 * README, "Pace code you don't own" → "Backpressure holds": "An answer kept for a retry is read to
 * its end while its body is short (up to 64 KiB, a refusal's usual line of JSON), so its connection
 * is free for other calls while the retry waits". Before bdc7e85, `AttemptHandler.drop` read the
 * rest of a dropped answer and its keep-alive connection stayed usable.
 *
 * Since bdc7e85 a dropped answer whose body has not *yet* ended is aborted. A 429 whose short body
 * (`slow down`, 9 bytes) arrives in a later chunk than its head (a proxy, a chunked error page, a
 * head flushed first) is dropped as soon as its retry leaves — at once for `Retry-After: 0` — before
 * its 9 bytes are in: the connection is destroyed and every such retry opens a new one (a TCP and
 * TLS handshake per refusal), where it was kept before. The spy below releases the body only once
 * the retry has been dispatched, so the order is the same on every run.
 *
 * Found on 2026-12-06 (session 25, a review of that day's changes) against bdc7e85 (the
 * interceptor aborting a dropped answer whose body had not ended); the change was taken back the
 * same day, and this test keeps its regression out: it passes on the code without it. The figures
 * above are that change's, against the code before and after it.
 */
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, type Dispatcher, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { headwayInterceptor } from '../../src/undici/index.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function refusalWithLateBody(retryAfter: string) {
  const seen: string[] = [];
  const state = { connections: 0 };
  let held: ServerResponse | null = null;
  const server = createServer((req, res) => {
    const n = seen.push(req.url ?? '') - 1;
    if (n > 0) {
      res.writeHead(200).end('ok');
      return;
    }
    res.writeHead(429, { 'retry-after': retryAfter, 'content-length': '9', 'content-type': 'text/plain' });
    res.flushHeaders();
    held = res;
  });
  server.on('connection', (socket) => {
    state.connections++;
    cleanups.push(() => socket.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  /** Sends the refusal's 9 bytes of body. */
  const release = () => {
    const res = held as ServerResponse | null;
    if (res && !res.destroyed) res.end('slow down');
  };
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, state, release };
}

async function runFor(clock: ManualClock, done: () => boolean): Promise<void> {
  for (let step = 0; step < 200 && !done(); step++) {
    await clock.advance(50);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

describe('headwayInterceptor: a short refusal whose body comes after its head, dropped for its retry', () => {
  for (const retryAfter of ['0', '1']) {
    it(`Retry-After: ${retryAfter}: the body is read and the keep-alive connection reused for the retry`, async () => {
      const { url, seen, state, release } = await refusalWithLateBody(retryAfter);
      const clock = new ManualClock(0, Date.UTC(2026, 10, 30));
      const client = new Client(url);
      cleanups.push(() => client.destroy());
      // Inside Headway (undici runs the last listed first): sees each attempt as it is dispatched.
      let attempts = 0;
      const spy =
        (dispatch: Dispatcher.Dispatch): Dispatcher.Dispatch =>
        (opts, handler) => {
          attempts++;
          const sent = dispatch(opts, handler);
          // The retry has left (its dropped answer was released first): now the body comes.
          if (attempts === 2) release();
          return sent;
        };
      const dispatcher = client.compose(spy, headwayInterceptor({ clock, random: () => 0 }));

      let settled: string | null = null;
      request(`${url}/a`, { dispatcher }).then(
        async (r) => (settled = `${r.statusCode} ${await r.body.text()}`),
        (error: unknown) => (settled = `error ${String(error)}`),
      );
      await runFor(clock, () => settled !== null);

      expect(settled).toBe('200 ok');
      expect(seen).toEqual(['/a', '/a']);
      expect(state.connections).toBe(1);
    });
  }
});
