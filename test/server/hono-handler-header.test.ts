import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { honoRateLimit } from '../../src/server/adapters/hono.js';
import { rateLimit } from '../../src/server/rate-limit.js';

/**
 * A route that answers with a `Response` of its own carrying one rate-limit field — a gateway
 * passing on an upstream's `RateLimit-Policy` (or GitHub's `X-RateLimit-Limit`). As on the node
 * adapters ("a header of the same name the handler sets itself wins"), that one field may be the
 * handler's, but the limiter's other headers (its `RateLimit` with what is left, its `Date`) must
 * still be on the response: rate-limit headers go on every response.
 */
describe('honoRateLimit (outside @hono/node-server) and a handler that sets one rate-limit field itself', () => {
  it.each([
    ['ietf', 'RateLimit-Policy', 'ratelimit', '"default";r=1;t=1'],
    ['x-ratelimit', 'X-RateLimit-Limit', 'x-ratelimit-remaining', '1'],
  ] as const)('%s: the limiter’s other headers are still sent', async (headers, theirs, ours, value) => {
    const app = new Hono();
    app.use(honoRateLimit(rateLimit({ headers, policy: { rate: 1, burst: 2 }, clock: new ManualClock() })));
    app.get('/', () => new Response('upstream', { headers: { [theirs]: 'upstream' } }));
    const response = await app.request('/');
    expect(response.status).toBe(200);
    expect(response.headers.get(theirs)).toBe('upstream');
    expect(response.headers.get(ours)).toBe(value);
    expect(response.headers.get('date')).toMatch(/GMT$/);
  });
});
