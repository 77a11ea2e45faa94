import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { honoRateLimit } from '../../src/server/adapters/hono.js';
import { rateLimit } from '../../src/server/rate-limit.js';

/**
 * README (CORS): "Both lists join the handler's own (`Vary: Accept-Language, Origin`;
 * `Access-Control-Expose-Headers: X-Request-Id, RateLimit, …`) rather than replace them or give
 * way to them". A Hono route that answers with a `Response` of its own (a gateway passing on an
 * upstream answer, `new Response(...)`) carries its own `Vary` and exposed names.
 *
 * With `cors` on and outside `@hono/node-server`, `honoRateLimit` reads `c.res` before the handler
 * runs (to join the name lists an earlier middleware set), which makes Hono copy every header on
 * the context over the handler's own `Response` when it is put in place: the handler's `Vary` and
 * `Access-Control-Expose-Headers` are replaced by the limiter's (a shared cache then serves one
 * encoding's answer for another, a page cannot read the request id). Without `cors`, or when the
 * handler builds its answer with `c.text()`, both lists are kept.
 *
 * Fixed on 2026-12-06 (the fifth review round): the adapter appends the name lists before the
 * handler (as hono/cors does) without reading `c.res`, and joins them after it. What the text above
 * describes is how it behaved before.
 */
const names = (value: string | null) =>
  (value ?? '')
    .split(',')
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean)
    .sort();

describe('honoRateLimit with cors, and a handler that answers with its own Response', () => {
  it('joins the handler’s Vary and Access-Control-Expose-Headers with its own', async () => {
    const app = new Hono();
    app.use(
      honoRateLimit(rateLimit({ policy: { rate: 1, burst: 5 }, clock: new ManualClock() }), {
        cors: { origin: 'https://app.example' },
      }),
    );
    app.get(
      '/',
      () =>
        new Response('x', {
          headers: {
            Vary: 'Accept-Encoding',
            'Access-Control-Expose-Headers': 'X-Request-Id',
            'X-Request-Id': 'r1',
          },
        }),
    );
    const response = await app.request('/', { headers: { origin: 'https://app.example' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(response.headers.get('ratelimit')).toBe('"default";r=4;t=1');
    expect(names(response.headers.get('vary'))).toEqual(['accept-encoding', 'origin']);
    expect(names(response.headers.get('access-control-expose-headers'))).toEqual([
      'date',
      'ratelimit',
      'ratelimit-policy',
      'x-request-id',
    ]);
  });
});
