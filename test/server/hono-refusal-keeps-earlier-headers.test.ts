import { Hono } from 'hono';
import { requestId } from 'hono/request-id';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { honoRateLimit } from '../../src/server/adapters/hono.js';
import { rateLimit } from '../../src/server/rate-limit.js';

/**
 * A Hono middleware in front of the limiter sets a header for every answer with `c.header()`
 * before `await next()` — Hono's own `requestId()` does (`X-Request-Id`). Hono keeps such headers
 * on any answer built through the context (`c.json`, `c.newResponse`, and even an
 * `HTTPException`'s response, which its error handler passes through `c.newResponse`), and
 * `expressRateLimit`'s refusal keeps what an earlier Express middleware set. `honoRateLimit`
 * answers a refusal (and a CORS preflight) with a bare `new Response(...)` instead, which Hono
 * puts in place of the prepared headers: the 429 loses the request id (the answer a client most
 * needs to report) while the 200 before it carried it.
 */
function app(options: { cors?: boolean } = {}) {
  const hono = new Hono();
  hono.use(requestId({ generator: () => 'req-1' }));
  hono.use(honoRateLimit(rateLimit({ policy: { rate: 1, burst: 1 }, clock: new ManualClock() }), options));
  hono.get('/', (c) => c.text('ok'));
  return hono;
}

describe('honoRateLimit answering itself after a middleware that set a header with c.header()', () => {
  it('keeps that header on the 429, as on the 200', async () => {
    const hono = app();
    const admitted = await hono.request('/');
    expect(admitted.status).toBe(200);
    expect(admitted.headers.get('x-request-id')).toBe('req-1');
    const refused = await hono.request('/');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.headers.get('x-request-id')).toBe('req-1');
  });

  it('keeps that header on the answer to a CORS preflight', async () => {
    const preflight = await app({ cors: true }).request('/', {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('x-request-id')).toBe('req-1');
  });
});
