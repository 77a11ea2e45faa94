/**
 * Two limiters on one request (a per-minute and a per-day quota, the README's "several windows at
 * once" that the client reads) are the only way to state several policies with `headway/server`
 * (`policyFor` names one). The IETF dialect is made for this: `RateLimit-Policy` and `RateLimit`
 * are structured-field Lists, "more than one quota policy can affect a given request" and
 * "These examples show multiple policies being returned: RateLimit-Policy: "permin";q=50;w=60,
 * "perhr";q=1000;w=3600" (draft-ietf-httpapi-ratelimit-headers-10 §2, §3.2). README "Server":
 * "Rate-limit headers go on every response" — and for `Vary`/`Access-Control-Expose-Headers` the
 * adapters already join what an earlier middleware set.
 *
 * Each adapter joins the earlier limiter's `RateLimit`/`RateLimit-Policy` items (they replaced
 * them once, and the client then saw 999 left of the daily quota and nothing of the minute window
 * that had 1 left, and paced straight into its 429s).
 */
import express from 'express';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { expressRateLimit } from '../../src/server/adapters/express.js';
import { withRateLimit } from '../../src/server/adapters/fetch.js';
import { honoRateLimit } from '../../src/server/adapters/hono.js';
import { rateLimit } from '../../src/server/rate-limit.js';
import { readRateLimit } from '../../src/signals/read-rate-limit.js';
import { listen } from './loopback.js';

const limiters = () => {
  const clock = new ManualClock();
  const key = () => 'client';
  return {
    minute: rateLimit({ clock, key, policy: { name: 'minute', limit: 2, windowMs: 60_000 } }),
    day: rateLimit({ clock, key, policy: { name: 'day', limit: 1000, windowMs: 86_400_000 } }),
  };
};

/** What the client reads of one answer: the policies it names and the binding window's remaining. */
const read = (response: Response) => {
  const signal = readRateLimit(response, { receivedAt: Date.now() });
  return { names: signal.policies.map((p) => p.name).sort(), remaining: signal.remaining };
};

describe('two limiters on one request, IETF headers', () => {
  it('Express: the answer names both policies, and the minute window (1 left) binds', async () => {
    const { minute, day } = limiters();
    const app = express();
    app.use(expressRateLimit(minute));
    app.use(expressRateLimit(day));
    app.get('/', (_req, res) => {
      res.json({ ok: true });
    });
    const server = await listen(app.listen(0, '127.0.0.1'));
    try {
      const response = await fetch(server.url);
      await response.arrayBuffer();
      expect(read(response)).toEqual({ names: ['day', 'minute'], remaining: 1 });
    } finally {
      await server.close();
    }
  });

  it('Hono: the answer names both policies, and the minute window (1 left) binds', async () => {
    const { minute, day } = limiters();
    const app = new Hono();
    app.use(honoRateLimit(minute, { ip: () => '192.0.2.1' }));
    app.use(honoRateLimit(day, { ip: () => '192.0.2.1' }));
    app.get('/', (c) => c.json({ ok: true }));
    const response = await app.request('/');
    expect(read(response)).toEqual({ names: ['day', 'minute'], remaining: 1 });
  });

  it('fetch handler: the answer names both policies; a handler’s own RateLimit items are kept beside the limiter’s', async () => {
    const { minute, day } = limiters();
    const handler = withRateLimit(
      minute,
      withRateLimit(day, () => Response.json({ ok: true })),
    );
    const response = await handler(new Request('http://api.test/'), { ip: '192.0.2.1' });
    expect(read(response)).toEqual({ names: ['day', 'minute'], remaining: 1 });
    // A handler's own items (a gateway passing on its upstream's) join too, as on every adapter.
    const own = await withRateLimit(limiters().minute, () =>
      Response.json({}, { headers: { RateLimit: '"upstream";r=5;t=1' } }),
    )(new Request('http://api.test/'), { ip: '192.0.2.1' });
    expect(read(own)).toEqual({ names: ['minute', 'upstream'], remaining: 1 });
  });
});
