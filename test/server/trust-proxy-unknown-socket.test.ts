import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { withRateLimit } from '../../src/server/adapters/fetch.js';
import { clientIp } from '../../src/server/client-ip.js';
import { rateLimit } from '../../src/server/rate-limit.js';

const req = (headers: Record<string, string> = {}) => new Request('http://api.test/', { headers });

/**
 * `clientIp` (src/server/client-ip.ts): "the chain is `[...X-Forwarded-For, socket address]`, and
 * the client is the entry `trustProxy` places left of the socket". The socket address is not
 * always known (a fetch handler called without `{ ip }`, `honoRateLimit` outside
 * `@hono/node-server` without its `ip` option), but the socket is still there: with one trusted
 * proxy, the client is the entry that proxy appended, the rightmost. Anything left of it was
 * written by the client itself.
 */
describe('trustProxy when the socket address is unknown', () => {
  it('takes the entry the trusted proxy appended, not the one the client wrote', () => {
    // The client sent `X-Forwarded-For: 198.51.100.1`; the one trusted proxy appended its peer.
    const forwarded = req({ 'x-forwarded-for': '198.51.100.1, 203.0.113.7' });
    expect(clientIp(forwarded, {}, 1)).toBe('203.0.113.7');
  });

  it('does not let a client pick a fresh quota with a forged X-Forwarded-For', async () => {
    const limiter = rateLimit({ clock: new ManualClock(), trustProxy: 1, policy: { limit: 1 } });
    const first = await limiter.check(req({ 'x-forwarded-for': '198.51.100.1, 203.0.113.7' }));
    const forged = await limiter.check(req({ 'x-forwarded-for': '198.51.100.2, 203.0.113.7' }));
    expect([first.key, forged.key]).toEqual(['ip:203.0.113.7', 'ip:203.0.113.7']);
    expect(forged.status).toBe(429);
  });

  it('holds under withRateLimit called as a plain fetch handler (Bun, Deno, workers: no { ip })', async () => {
    const limiter = rateLimit({ clock: new ManualClock(), trustProxy: 1, policy: { limit: 1 } });
    const handler = withRateLimit(limiter, () => new Response('ok'));
    const first = await handler(req({ 'x-forwarded-for': '203.0.113.7' }));
    const forged = await handler(req({ 'x-forwarded-for': '198.51.100.2, 203.0.113.7' }));
    expect([first.status, forged.status]).toEqual([200, 429]);
  });
});
