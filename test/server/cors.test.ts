import express from 'express';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { expressRateLimit } from '../../src/server/adapters/express.js';
import { withRateLimit } from '../../src/server/adapters/fetch.js';
import { honoRateLimit } from '../../src/server/adapters/hono.js';
import { nodeRateLimit } from '../../src/server/adapters/node.js';
import { corsHeaders, isPreflight, preflightHeaders } from '../../src/server/cors.js';
import type { HeaderList } from '../../src/server/headers/types.js';
import { type RateLimiter, rateLimit } from '../../src/server/rate-limit.js';
import { startServer } from '../../src/server/serve.js';
import { fetchBridge, listen } from './loopback.js';

const request = (method: string, headers: Record<string, string> = {}) =>
  new Request('http://api.test/x', { method, headers });
const sent: HeaderList = [
  ['RateLimit-Policy', '"default";q=1;w=2'],
  ['RateLimit', '"default";r=0;t=2'],
  ['Retry-After', '1'],
  ['Date', 'Tue, 01 Dec 2026 00:00:00 GMT'],
];

describe('corsHeaders', () => {
  it('allows any origin and exposes every header the limiter sent', () => {
    expect(corsHeaders(true, request('GET', { origin: 'http://page.test' }), sent)).toEqual([
      ['Access-Control-Allow-Origin', '*'],
      ['Access-Control-Expose-Headers', 'RateLimit-Policy, RateLimit, Retry-After, Date'],
    ]);
  });

  it('echoes a listed origin (with Vary), allows no other, and is empty when off', () => {
    const cors = { origin: ['http://a.test', 'http://b.test'] };
    expect(corsHeaders(cors, request('GET', { origin: 'http://b.test' }), sent).slice(0, 2)).toEqual([
      ['Access-Control-Allow-Origin', 'http://b.test'],
      ['Vary', 'Origin'],
    ]);
    const other = corsHeaders(cors, request('GET', { origin: 'http://evil.test' }), sent);
    expect(other.find(([name]) => name === 'Access-Control-Allow-Origin')).toBeUndefined();
    expect(corsHeaders(false, request('GET'), sent)).toEqual([]);
    expect(corsHeaders(undefined, request('GET'), sent)).toEqual([]);
  });

  it('answers a preflight: methods, the requested headers, max age', () => {
    const preflight = request('OPTIONS', {
      origin: 'http://page.test',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type, idempotency-key',
    });
    expect(isPreflight(true, preflight)).toBe(true);
    expect(isPreflight(false, preflight)).toBe(false);
    expect(isPreflight(true, request('OPTIONS'))).toBe(false);
    expect(preflightHeaders({ maxAgeSeconds: 60 }, preflight)).toEqual([
      ['Access-Control-Allow-Origin', '*'],
      ['Access-Control-Allow-Methods', 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS'],
      ['Access-Control-Allow-Headers', 'content-type, idempotency-key'],
      ['Access-Control-Max-Age', '60'],
    ]);
  });
});

/** Each adapter with `cors: true`, listening on loopback around `limiter`. */
const adapters: Record<string, (limiter: RateLimiter) => Parameters<typeof listen>[0]> = {
  'node:http': (limiter) => nodeRateLimit(limiter, (_req, res) => res.end('ok'), { cors: true }),
  fetch: (limiter) => {
    const handler = withRateLimit(limiter, () => new Response('ok'), { cors: true });
    return fetchBridge((request) => handler(request));
  },
  express: (limiter) => {
    const app = express();
    app.use(expressRateLimit(limiter, { cors: true }));
    app.get('/', (_req, res) => {
      res.send('ok');
    });
    return (req, res) => app(req, res);
  },
  hono: (limiter) => {
    const app = new Hono();
    app.use(honoRateLimit(limiter, { cors: true }));
    app.get('/', (c) => c.text('ok'));
    return fetchBridge((request) => Promise.resolve(app.fetch(request)));
  },
};

describe.each(Object.entries(adapters))('%s adapter, cors: true', (_name, listener) => {
  it('exposes the rate-limit headers and Retry-After; a preflight is answered 204 and not counted', async () => {
    const limiter = rateLimit({ policy: { rate: 1, burst: 1 }, clock: new ManualClock() });
    const server = await listen(listener(limiter));
    try {
      const preflight = await fetch(server.url, {
        method: 'OPTIONS',
        headers: { origin: 'http://page.test', 'access-control-request-method': 'GET' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
      const ok = await fetch(server.url, { headers: { origin: 'http://page.test' } });
      const refused = await fetch(server.url, { headers: { origin: 'http://page.test' } });
      expect([ok.status, refused.status]).toEqual([200, 429]);
      for (const res of [ok, refused]) expect(res.headers.get('access-control-allow-origin')).toBe('*');
      const exposed = (res: Response) =>
        (res.headers.get('access-control-expose-headers') ?? '').toLowerCase().split(', ');
      expect(exposed(ok)).toEqual(expect.arrayContaining(['ratelimit', 'ratelimit-policy']));
      expect(exposed(refused)).toEqual(
        expect.arrayContaining(['ratelimit', 'ratelimit-policy', 'retry-after']),
      );
      expect(limiter.metrics()).toMatchObject({ allowed: 1, refused: 1 });
    } finally {
      await server.close();
    }
  });
});

describe('startServer (headway serve)', () => {
  it('sends CORS headers by default, none with cors: false', async () => {
    for (const [cors, expected] of [
      [undefined, '*'],
      [false, null],
    ] as const) {
      const server = await startServer({ clock: new ManualClock(), cors });
      try {
        const res = await fetch(server.url);
        expect(res.headers.get('access-control-allow-origin')).toBe(expected);
        if (expected) expect(res.headers.get('access-control-expose-headers')).toMatch(/RateLimit-Policy/i);
      } finally {
        await server.close();
      }
    }
  });
});
