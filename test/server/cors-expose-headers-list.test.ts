import express from 'express';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { expressRateLimit } from '../../src/server/adapters/express.js';
import { withRateLimit } from '../../src/server/adapters/fetch.js';
import { honoRateLimit } from '../../src/server/adapters/hono.js';
import { nodeRateLimit } from '../../src/server/adapters/node.js';
import { rateLimit } from '../../src/server/rate-limit.js';
import { fetchBridge, listen } from './loopback.js';

/**
 * README (CORS): with `cors`, "answers then carry … `Access-Control-Expose-Headers` naming every
 * header the limiter set on that answer"; without it "a page cannot read `RateLimit` or
 * `Retry-After`". `Access-Control-Expose-Headers` is a list (Fetch standard: `#field-name`), like
 * `Vary`, which the adapters already join. A handler that exposes one header of its own (a request
 * id, an `ETag`) is common; its list and the limiter's must both reach the browser. Today one side
 * replaces the other: the handler's wins on node:http, Hono and Express (the rate-limit headers are
 * hidden from every browser client), the limiter's wins in withRateLimit (the handler's is hidden).
 */
const limiter = () => rateLimit({ policy: { rate: 1, burst: 5 }, clock: new ManualClock() });
const exposed = (response: Response) =>
  (response.headers.get('access-control-expose-headers') ?? '')
    .split(',')
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean);

async function answer(listener: Parameters<typeof listen>[0]): Promise<Response> {
  const server = await listen(listener);
  try {
    const response = await fetch(server.url, { headers: { origin: 'https://app.example' } });
    await response.text();
    return response;
  } finally {
    await server.close();
  }
}

const expectBoth = (response: Response) => {
  expect(response.status).toBe(200);
  expect(exposed(response)).toEqual(
    expect.arrayContaining(['x-request-id', 'ratelimit', 'ratelimit-policy']),
  );
};

describe('a handler’s own Access-Control-Expose-Headers and the limiter’s', () => {
  it('nodeRateLimit exposes both', async () => {
    const response = await answer(
      nodeRateLimit(
        limiter(),
        (_req, res) => {
          res.setHeader('Access-Control-Expose-Headers', 'X-Request-Id');
          res.setHeader('X-Request-Id', 'r1');
          res.end('x');
        },
        { cors: true },
      ),
    );
    expectBoth(response);
  });

  it('honoRateLimit exposes both', async () => {
    const app = new Hono();
    app.use(honoRateLimit(limiter(), { cors: true, ip: () => '192.0.2.1' }));
    app.get('/', (c) => {
      c.header('Access-Control-Expose-Headers', 'X-Request-Id');
      c.header('X-Request-Id', 'r1');
      return c.text('x');
    });
    const response = await answer(fetchBridge((request) => app.fetch(request)));
    expectBoth(response);
  });

  it('expressRateLimit exposes both: a later handler appends (Express’s own res.set replaces)', async () => {
    const app = express();
    app.use(expressRateLimit(limiter(), { cors: true }));
    app.get('/', (_req, res) => {
      res.append('Access-Control-Expose-Headers', 'X-Request-Id').set('X-Request-Id', 'r1').send('x');
    });
    const response = await answer(app.listen(0, '127.0.0.1'));
    expectBoth(response);
  });

  it('expressRateLimit exposes both: an earlier middleware’s names are joined', async () => {
    const app = express();
    app.use((_req, res, next) => {
      res.set('Access-Control-Expose-Headers', 'X-Request-Id').set('X-Request-Id', 'r1');
      next();
    });
    app.use(expressRateLimit(limiter(), { cors: true }));
    app.get('/', (_req, res) => {
      res.send('x');
    });
    const response = await answer(app.listen(0, '127.0.0.1'));
    expectBoth(response);
  });

  it('withRateLimit exposes both', async () => {
    const handler = withRateLimit(
      limiter(),
      () =>
        new Response('x', {
          headers: { 'Access-Control-Expose-Headers': 'X-Request-Id', 'X-Request-Id': 'r1' },
        }),
      { cors: true },
    );
    const response = await answer(fetchBridge((request) => handler(request, { ip: '192.0.2.1' })));
    expectBoth(response);
  });
});
