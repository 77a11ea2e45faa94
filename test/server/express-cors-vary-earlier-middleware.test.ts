import express from 'express';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { expressRateLimit } from '../../src/server/adapters/express.js';
import { rateLimit } from '../../src/server/rate-limit.js';
import { listen } from './loopback.js';

/**
 * README (CORS): a listed origin is echoed "with `Origin` added to the handler's own `Vary`";
 * src/server/cors.ts: "`Vary` is a list: the limiter's field (`Origin`) joins what a handler already
 * varies on, never replaces it". Under Express the app's own `Vary` may be set before the limiter
 * runs (content negotiation, i18n, an earlier middleware). `expressRateLimit` sets `Vary: Origin`
 * with `setHeader`, replacing it, so a shared cache serves one language's answer to another
 * (nodeRateLimit joins a `Vary` set before it, see putHeaders).
 */
const cors = { origin: 'https://app.example' };
const fields = (value: string | null) =>
  (value ?? '')
    .split(',')
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean)
    .sort();

describe('expressRateLimit with CORS after a middleware that set Vary', () => {
  it.each([
    ['an admitted request (then the handler answers)', 5, 200],
    ['a refused request (the limiter answers)', 1, 429],
  ] as const)('keeps the earlier Vary beside Origin on %s', async (_label, burst, status) => {
    const app = express();
    app.use((_req, res, next) => {
      res.vary('Accept-Language');
      next();
    });
    app.use(expressRateLimit(rateLimit({ policy: { rate: 1, burst }, clock: new ManualClock() }), { cors }));
    app.get('/', (_req, res) => {
      res.send('x');
    });
    const server = await listen(app.listen(0, '127.0.0.1'));
    try {
      if (status === 429) await (await fetch(server.url, { headers: { origin: cors.origin } })).text();
      const response = await fetch(server.url, { headers: { origin: cors.origin } });
      await response.text();
      expect(response.status).toBe(status);
      expect(response.headers.get('access-control-allow-origin')).toBe(cors.origin);
      expect(fields(response.headers.get('vary'))).toEqual(['accept-language', 'origin']);
    } finally {
      await server.close();
    }
  });
});
