import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { rateLimit } from '../../src/server/rate-limit.js';
import type { RateLimitStore } from '../../src/stores/store.js';

/** A store whose `take` resolves with `reply` (a custom store that fills a `Decision` wrongly). */
const answering = (reply: unknown): RateLimitStore => ({
  take: () => Promise.resolve(reply as never),
  reserve: () => new Promise(() => {}),
  holdGate: () => new Promise(() => {}),
  gateWait: () => new Promise(() => {}),
});
const req = () => new Request('http://api.test/items');
const value = (headers: [string, string][], name: string) => headers.find(([n]) => n === name)?.[1];

// A `Decision` (src/stores/store.ts) carries `limit`, whole `remaining`, `resetMs` and an exact,
// non-negative `retryAfterMs`. src/server/rate-limit.ts `isDecision` checks only `allowed`,
// `remaining`, `resetMs`, `retryAfterMs` for finiteness, so a reply missing `limit` or with a
// negative wait passes as a decision and is written into the headers as is. A reply the limiter
// cannot answer from must be a store failure (README "Options": answered open/closed, counted in
// `storeErrors`; test/server/store-garbage.test.ts), or else never produce a malformed field:
// draft-7's `limit` and `X-RateLimit-Limit`/`-Used` are Integers, `retry-after-ms` a whole number
// of ms ≥ 0 (README "Header dialects").
describe('a store reply that is not a whole Decision', () => {
  const noLimit = { allowed: true, remaining: 4, resetMs: 1_000, retryAfterMs: 0 };

  it('draft-7: never writes `limit=NaN`', async () => {
    const limiter = rateLimit({ clock: new ManualClock(), headers: 'draft-7', store: answering(noLimit) });
    const outcome = await limiter.check(req(), { ip: 'a' });
    const field = value(outcome.headers, 'RateLimit');
    if (field !== undefined) expect(field).toMatch(/^limit=\d+, remaining=\d+, reset=\d+$/);
    else expect(outcome.storeError?.code).toBe('HEADWAY_STORE_ERROR');
  });

  it('x-ratelimit: never writes `X-RateLimit-Limit: NaN` or `X-RateLimit-Used: NaN`', async () => {
    const limiter = rateLimit({
      clock: new ManualClock(),
      headers: 'x-ratelimit',
      store: answering(noLimit),
    });
    const outcome = await limiter.check(req(), { ip: 'a' });
    const integers = outcome.headers.filter(([name]) =>
      /^X-RateLimit-(Limit|Remaining|Used|Reset)$/.test(name),
    );
    for (const [name, v] of integers) expect(`${name}: ${v}`).toMatch(/^[\w-]+: \d+$/);
  });

  it('a refusal with a negative wait never sends a negative `retry-after-ms`', async () => {
    const limiter = rateLimit({
      clock: new ManualClock(),
      retryAfterMsHeader: true,
      store: answering({ allowed: false, limit: 60, remaining: 0, resetMs: 1_000, retryAfterMs: -500 }),
    });
    const outcome = await limiter.check(req(), { ip: 'a' });
    const ms = value(outcome.headers, 'retry-after-ms');
    if (ms !== undefined) expect(ms).toMatch(/^\d+$/);
  });
});
