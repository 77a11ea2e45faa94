import express from 'express';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { expressRateLimit } from '../../src/server/adapters/express.js';
import { withRateLimit } from '../../src/server/adapters/fetch.js';
import { honoRateLimit } from '../../src/server/adapters/hono.js';
import { nodeRateLimit } from '../../src/server/adapters/node.js';
import { rateLimit } from '../../src/server/rate-limit.js';
import type { LimitRequest } from '../../src/server/request.js';
import { fetchBridge, listen } from './loopback.js';

/**
 * `key`, `policyFor` and `cost` read a `LimitRequest`, "a Web `Request` fits": its `url` is the
 * request's absolute URL, as the fetch and Hono adapters pass it (and as node-server.test.ts
 * asserts: "pass the full URL to key()"). The node and Express adapters must pass the same, so
 * one `cost`/`key` works behind every adapter (e.g. `new URL(request.url).pathname`), and a
 * middleware mounted under a path still sees the path the client asked for.
 */
describe('request.url is the same absolute URL behind every adapter', () => {
  const seen = () => {
    const urls: string[] = [];
    const limiter = rateLimit({
      clock: new ManualClock(),
      key: (request: LimitRequest) => {
        urls.push(request.url);
        return 'k';
      },
    });
    return { urls, limiter };
  };

  it('fetch and Hono adapters: the absolute URL', async () => {
    const fetchSide = seen();
    const handler = withRateLimit(fetchSide.limiter, () => new Response('ok'));
    const honoSide = seen();
    const app = new Hono();
    app.use(honoRateLimit(honoSide.limiter));
    app.get('/api/search', (c) => c.text('ok'));
    for (const listener of [
      fetchBridge((request) => handler(request, { ip: '127.0.0.1' })),
      fetchBridge((request) => app.fetch(request)),
    ]) {
      const server = await listen(listener);
      try {
        await (await fetch(`${server.url}/api/search?q=1`)).text();
      } finally {
        await server.close();
      }
    }
    expect(fetchSide.urls[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/search\?q=1$/);
    expect(honoSide.urls[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/search\?q=1$/);
  });

  it('nodeRateLimit: the absolute URL too', async () => {
    const { urls, limiter } = seen();
    const server = await listen(nodeRateLimit(limiter, (_req, res) => res.end('ok')));
    try {
      await (await fetch(`${server.url}/api/search?q=1`)).text();
      expect(urls[0]).toBe(`${server.url}/api/search?q=1`);
    } finally {
      await server.close();
    }
  });

  it('expressRateLimit mounted under /api: the absolute URL the client asked for', async () => {
    const { urls, limiter } = seen();
    const app = express();
    app.use('/api', expressRateLimit(limiter));
    app.get('/api/search', (_req, res) => {
      res.send('ok');
    });
    const server = await listen(app.listen(0, '127.0.0.1'));
    try {
      await (await fetch(`${server.url}/api/search?q=1`)).text();
      expect(urls[0]).toBe(`${server.url}/api/search?q=1`);
    } finally {
      await server.close();
    }
  });
});
