/**
 * README (CORS): `Vary` and `Access-Control-Expose-Headers` "join the handler's own … and so do an
 * earlier middleware's", "(`Vary: *` is kept as is)"; src/server/joined-fields.ts: the limiter's
 * names "are added to what is there" — a name already listed is not added again, and `Vary: *`
 * "varies on every field already". The fetch adapters (`fieldOver`) follow that rule.
 *
 * Outside `@hono/node-server`, `honoRateLimit` now appends its name lists before the handler with
 * `c.header(name, value, { append: true })`, without looking at what is there: a name an earlier
 * middleware (or an earlier `honoRateLimit` with `cors`) listed is listed twice (`Vary: Origin,
 * Origin`; `Access-Control-Expose-Headers: RateLimit-Policy, RateLimit, Date, RateLimit-Policy,
 * RateLimit, Date`), and an earlier `Vary: *` becomes `*, Origin`. The join after `next()` cannot
 * undo it: it sees its names already there.
 *
 * Fixed on 2026-12-06 (a review of the day's changes): the name lists join once after the handler
 * (no append before it). What the text above describes is how it behaved before.
 */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { honoRateLimit } from '../../src/server/adapters/hono.js';
import { rateLimit } from '../../src/server/rate-limit.js';

const origin = 'https://app.example';
const limiter = (name: string) =>
  rateLimit({ policy: { name, rate: 1, burst: 5 }, clock: new ManualClock(), key: () => 'client' });
const names = (value: string | null) => (value ?? '').split(',').map((v) => v.trim().toLowerCase());

describe('honoRateLimit with cors, after a middleware that listed the same names', () => {
  it('an earlier Vary: Origin is not listed twice', async () => {
    const app = new Hono();
    app.use(async (c, next) => {
      c.header('Vary', 'Origin');
      await next();
    });
    app.use(honoRateLimit(limiter('minute'), { cors: { origin: [origin] } }));
    app.get('/', (c) => c.text('ok'));
    const response = await app.request('/', { headers: { origin } });
    expect(response.status).toBe(200);
    expect(response.headers.get('vary')).toBe('Origin');
  });

  it('two stacked limiters with cors list each exposed name once (the fetch adapter does)', async () => {
    const app = new Hono();
    app.use(honoRateLimit(limiter('minute'), { cors: { origin: [origin] } }));
    app.use(honoRateLimit(limiter('day'), { cors: { origin: [origin] } }));
    app.get('/', (c) => c.text('ok'));
    const response = await app.request('/', { headers: { origin } });
    expect(response.status).toBe(200);
    const exposed = names(response.headers.get('access-control-expose-headers'));
    expect({ exposed, vary: response.headers.get('vary') }).toEqual({
      exposed: [...new Set(exposed)],
      vary: 'Origin',
    });
  });

  it('an earlier Vary: * is kept as is', async () => {
    const app = new Hono();
    app.use(async (c, next) => {
      c.header('Vary', '*');
      await next();
    });
    app.use(honoRateLimit(limiter('minute'), { cors: { origin: [origin] } }));
    app.get('/', (c) => c.text('ok'));
    const response = await app.request('/', { headers: { origin } });
    expect(response.headers.get('vary')).toBe('*');
  });
});
