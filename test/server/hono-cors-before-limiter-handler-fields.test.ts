/**
 * README (Server): "Everywhere the same rule holds: a field the handler's response lacks is added,
 * `Vary`, the exposed names and the IETF `RateLimit`/`RateLimit-Policy` lists join the handler's (a
 * gateway passing on its upstream's window keeps it beside the limiter's), and any other field the
 * handler set itself wins"; the Hono adapter's TSDoc: "(a handler's own of the same name wins)".
 * test/server/hono-handler-header.test.ts checks it for a route alone.
 *
 * Put `hono/cors` in front (the usual Hono setup for a browser API): it writes its headers on
 * `c.res` before `next()`, so the context has a response, and `honoRateLimit`'s `c.header()` calls
 * before the handler land on it. When the route answers with a `Response` of its own (a gateway),
 * Hono copies that context response's headers over it: the limiter's fields replace the handler's
 * (the upstream's `RateLimit`/`RateLimit-Policy` items are gone, the upstream's
 * `X-RateLimit-Limit: 100` reads 5), and the join after `next()` sees only its own values.
 *
 * Fixed on 2026-12-06 (a review of the day's changes): outside `@hono/node-server` the limiter puts
 * its fields on the response once the handler has run, by the rule of every adapter, never on the
 * context before it. What the text above describes is how it behaved before.
 */
import { Hono } from 'hono';
import { cors as honoCors } from 'hono/cors';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { honoRateLimit } from '../../src/server/adapters/hono.js';
import { rateLimit } from '../../src/server/rate-limit.js';

const origin = 'https://app.example';
const limiter = (headers: 'ietf' | 'x-ratelimit') =>
  rateLimit({ headers, policy: { rate: 1, burst: 5 }, clock: new ManualClock() });

describe('hono/cors, then honoRateLimit, then a route answering with its own Response', () => {
  it('ietf: the upstream RateLimit-Policy item stays beside the limiter’s', async () => {
    const app = new Hono();
    app.use(honoCors({ origin }));
    app.use(honoRateLimit(limiter('ietf')));
    app.get(
      '/',
      () =>
        new Response('from upstream', {
          headers: { 'RateLimit-Policy': '"upstream";q=100;w=60', RateLimit: '"upstream";r=5;t=30' },
        }),
    );
    const response = await app.request('/', { headers: { origin } });
    expect(response.status).toBe(200);
    expect(response.headers.get('ratelimit-policy')).toBe('"upstream";q=100;w=60, "default";q=5;w=5');
    expect(response.headers.get('ratelimit')).toBe('"upstream";r=5;t=30, "default";r=4;t=1');
  });

  it('x-ratelimit: the handler’s own X-RateLimit-Limit wins', async () => {
    const app = new Hono();
    app.use(honoCors({ origin }));
    app.use(honoRateLimit(limiter('x-ratelimit')));
    app.get('/', () => new Response('from upstream', { headers: { 'X-RateLimit-Limit': '100' } }));
    const response = await app.request('/', { headers: { origin } });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-ratelimit-limit')).toBe('100');
  });

  it('control: without hono/cors the same app keeps the handler’s fields', async () => {
    const app = new Hono();
    app.use(honoRateLimit(limiter('x-ratelimit')));
    app.get('/', () => new Response('from upstream', { headers: { 'X-RateLimit-Limit': '100' } }));
    const response = await app.request('/', { headers: { origin } });
    expect(response.headers.get('x-ratelimit-limit')).toBe('100');
  });
});
