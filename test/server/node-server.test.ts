import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { withRateLimit } from '../../src/server/adapters/fetch.js';
import { honoRateLimit } from '../../src/server/adapters/hono.js';
import { rateLimit } from '../../src/server/rate-limit.js';
import { expectContract, threeCalls } from './loopback.js';

const manual = () => rateLimit({ policy: { rate: 1, burst: 2 }, clock: new ManualClock() });

/** Serves `fetch` with `@hono/node-server` on 127.0.0.1, port 0. */
// biome-ignore lint/suspicious/noExplicitAny: the env type differs between Hono and withRateLimit
async function onNodeServer(fetch: (request: Request, env: any) => Response | Promise<Response>) {
  const { server, port } = await new Promise<{ server: ReturnType<typeof serve>; port: number }>(
    (resolve) => {
      const server = serve({ fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
        resolve({ server, port: info.port }),
      );
    },
  );
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('under @hono/node-server (headers set on the node response underneath)', () => {
  it('honoRateLimit: headers on 200 (c.json and a raw Response) and 429, keyed by the socket', async () => {
    for (const raw of [false, true]) {
      const limiter = manual();
      const app = new Hono();
      app.use(honoRateLimit(limiter));
      app.get('/', (c) => (raw ? new Response('ok') : c.json({ ok: true })));
      const server = await onNodeServer(app.fetch);
      try {
        expectContract(await threeCalls(server.url));
        expect(limiter.metrics().keys[0]?.key).toBe('ip:127.0.0.1');
      } finally {
        await server.close();
      }
    }
  });

  it('withRateLimit: headers on 200 and 429, keyed by the socket', async () => {
    const limiter = manual();
    const server = await onNodeServer(withRateLimit(limiter, () => new Response('ok')));
    try {
      expectContract(await threeCalls(server.url));
      expect(limiter.metrics().keys[0]?.key).toBe('ip:127.0.0.1');
    } finally {
      await server.close();
    }
  });

  it('withRateLimit over a Hono app’s fetch (no middleware layer): headers on 200 and 429, keyed by the socket', async () => {
    const limiter = manual();
    const app = new Hono();
    app.get('/', (c) => c.json({ ok: true }));
    const server = await onNodeServer(withRateLimit(limiter, app.fetch));
    try {
      expectContract(await threeCalls(server.url));
      expect(limiter.metrics().keys[0]?.key).toBe('ip:127.0.0.1');
    } finally {
      await server.close();
    }
  });

  it('both read the request headers (API key, CORS origin) and pass the full URL to key()', async () => {
    const seen: string[] = [];
    const limiter = () =>
      rateLimit({
        policy: { rate: 1, burst: 1 },
        clock: new ManualClock(),
        key: (request) => {
          seen.push(`${request.method} ${request.url} ${request.headers.get('x-api-key')}`);
          return request.headers.get('x-api-key') ?? 'none';
        },
      });
    const app = new Hono();
    app.use(honoRateLimit(limiter(), { cors: true }));
    app.get('/p', (c) => c.json({ ok: true }));
    for (const fetch of [app.fetch, withRateLimit(limiter(), () => new Response('ok'), { cors: true })]) {
      seen.length = 0;
      const server = await onNodeServer(fetch);
      try {
        const call = (key: string) =>
          globalThis.fetch(`${server.url}/p?q=1`, {
            headers: { 'x-api-key': key, origin: 'https://a.example' },
          });
        const first = await call('one');
        expect(first.status).toBe(200);
        expect(first.headers.get('access-control-allow-origin')).not.toBeNull();
        expect((await call('one')).status).toBe(429); // the same key: its burst of 1 is spent
        expect((await call('two')).status).toBe(200); // another key: its own bucket
        expect(seen[0]).toBe(`GET ${server.url}/p?q=1 one`);
      } finally {
        await server.close();
      }
    }
  });
});
