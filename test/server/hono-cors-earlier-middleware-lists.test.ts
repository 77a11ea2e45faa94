import { Hono } from 'hono';
import { cors as honoCors } from 'hono/cors';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { honoRateLimit } from '../../src/server/adapters/hono.js';
import { rateLimit } from '../../src/server/rate-limit.js';

/**
 * README (CORS): `Vary` and `Access-Control-Expose-Headers` "join the handler's own … rather than
 * replace them or give way to them"; src/server/cors.ts: the limiter's names "join what a handler
 * already set, never replace it". Express joins what an earlier middleware set
 * (express-cors-vary-earlier-middleware.test.ts), and so does Hono under @hono/node-server. Outside
 * it (`app.fetch`: Bun, Deno, workers, `app.request`), `honoRateLimit` sets its fields with
 * `c.header(name, value)` before the handler runs, which replaces what an earlier middleware set
 * with `c.header()` or on `c.res` (Hono's own `cors({ exposeHeaders })`): the browser can no longer
 * read the app's exposed header, and a shared cache no longer varies on the app's field.
 */
const origin = 'https://app.example';
const fields = (value: string | null) =>
  (value ?? '')
    .split(',')
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean);
const limiter = () => rateLimit({ policy: { rate: 1, burst: 5 }, clock: new ManualClock() });

describe('honoRateLimit (outside @hono/node-server) with CORS after a middleware that set the lists', () => {
  it('keeps the Access-Control-Expose-Headers of an earlier hono/cors beside its own', async () => {
    const app = new Hono();
    app.use(honoCors({ origin, exposeHeaders: ['X-Request-Id'] }));
    app.use(honoRateLimit(limiter(), { cors: { origin: [origin] } }));
    app.get('/', (c) => c.text('ok'));
    const response = await app.request('/', { headers: { origin } });
    expect(response.status).toBe(200);
    expect(fields(response.headers.get('access-control-expose-headers'))).toEqual(
      expect.arrayContaining(['x-request-id', 'ratelimit', 'ratelimit-policy']),
    );
  });

  it('keeps the Vary an earlier middleware set with c.header() beside Origin', async () => {
    const app = new Hono();
    app.use(async (c, next) => {
      c.header('Vary', 'Accept-Language');
      await next();
    });
    app.use(honoRateLimit(limiter(), { cors: { origin: [origin] } }));
    app.get('/', (c) => c.text('ok'));
    const response = await app.request('/', { headers: { origin } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(origin);
    expect(fields(response.headers.get('vary')).sort()).toEqual(['accept-language', 'origin']);
  });
});
