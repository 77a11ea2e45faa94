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
 * With a listed CORS origin the adapters echo it and add `Vary: Origin`. `Vary` is a list: a
 * handler's own `Vary: Accept-Encoding` (compression, content negotiation) and the limiter's
 * `Origin` must both be on the answer. Replacing either lets a shared cache serve one origin's
 * (or one encoding's) answer to another.
 */
const cors = { origin: 'https://app.example' };
const limiter = () => rateLimit({ policy: { rate: 1, burst: 5 }, clock: new ManualClock() });
const vary = (value: string | null) =>
  (value ?? '')
    .split(',')
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean)
    .sort();

async function varyOf(listener: Parameters<typeof listen>[0]): Promise<string[]> {
  const server = await listen(listener);
  try {
    const response = await fetch(server.url, { headers: { origin: 'https://app.example' } });
    await response.text();
    expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example');
    return vary(response.headers.get('vary'));
  } finally {
    await server.close();
  }
}

describe('CORS Vary: Origin beside the handler’s own Vary', () => {
  it('withRateLimit keeps the handler’s Vary', async () => {
    const handler = withRateLimit(
      limiter(),
      () => new Response('x', { headers: { vary: 'Accept-Encoding' } }),
      { cors },
    );
    expect(await varyOf(fetchBridge((request) => handler(request, { ip: '127.0.0.1' })))).toEqual([
      'accept-encoding',
      'origin',
    ]);
  });

  it('nodeRateLimit keeps Origin in Vary', async () => {
    const listener = nodeRateLimit(
      limiter(),
      (_req, res) => res.writeHead(200, { vary: 'Accept-Encoding' }).end('x'),
      { cors },
    );
    expect(await varyOf(listener)).toEqual(['accept-encoding', 'origin']);
  });

  it('honoRateLimit keeps Origin in Vary', async () => {
    const app = new Hono();
    app.use(honoRateLimit(limiter(), { cors }));
    app.get('/', (c) => {
      c.header('Vary', 'Accept-Encoding');
      return c.text('x');
    });
    expect(await varyOf(fetchBridge((request) => app.fetch(request)))).toEqual(['accept-encoding', 'origin']);
  });

  it('expressRateLimit keeps Origin in Vary (control: res.vary appends)', async () => {
    const app = express();
    app.use(expressRateLimit(limiter(), { cors }));
    app.get('/', (_req, res) => {
      res.vary('Accept-Encoding').send('x');
    });
    expect(await varyOf(app.listen(0, '127.0.0.1'))).toEqual(['accept-encoding', 'origin']);
  });
});
