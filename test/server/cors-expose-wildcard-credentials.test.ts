import express from 'express';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { expressRateLimit } from '../../src/server/adapters/express.js';
import { rateLimit } from '../../src/server/rate-limit.js';
import { listen } from './loopback.js';

/**
 * Fetch standard (CORS protocol, `Access-Control-Expose-Headers`): `*` is a wildcard only for a
 * request without credentials; for a credentialed request (`credentials: 'include'`, answered with
 * `Access-Control-Allow-Credentials: true`) it is the literal field name `*`, and only the names
 * listed are exposed. `joinField` (src/server/joined-fields.ts) treats an existing `*` as "names every field
 * already" and adds nothing, so behind an app that answers credentialed requests with
 * `Access-Control-Expose-Headers: *` a browser client cannot read `RateLimit` or `Retry-After`
 * (README, CORS: the list names "every header the limiter set on that answer").
 */
const origin = 'https://app.example';
const fields = (value: string | null) =>
  (value ?? '')
    .split(',')
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean);

describe('expressRateLimit with CORS after a middleware that exposes * on credentialed answers', () => {
  it('still names the rate-limit headers (the * is literal for a credentialed request)', async () => {
    const app = express();
    app.use((_req, res, next) => {
      res.setHeader('Access-Control-Allow-Credentials', 'true');
      res.setHeader('Access-Control-Expose-Headers', '*');
      next();
    });
    app.use(
      expressRateLimit(rateLimit({ policy: { rate: 1, burst: 5 }, clock: new ManualClock() }), {
        cors: { origin: [origin] },
      }),
    );
    app.get('/', (_req, res) => {
      res.send('x');
    });
    const server = await listen(app.listen(0, '127.0.0.1'));
    try {
      const response = await fetch(server.url, { headers: { origin, cookie: 'session=1' } });
      await response.text();
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe(origin);
      expect(response.headers.get('access-control-allow-credentials')).toBe('true');
      expect(fields(response.headers.get('access-control-expose-headers'))).toEqual(
        expect.arrayContaining(['ratelimit', 'ratelimit-policy']),
      );
    } finally {
      await server.close();
    }
  });
});
