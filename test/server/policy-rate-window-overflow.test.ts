import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { resolvePolicy } from '../../src/server/policy.js';
import { rateLimit } from '../../src/server/rate-limit.js';

/**
 * `resolvePolicy` (`src/server/policy.ts`): "Validates `policy` and maps it onto a StoreLimit …
 * Throws `HEADWAY_INVALID_OPTION` errors that say how to fix it"; README: "Options are validated
 * when `rateLimit` is called". `rate` and `burst` are each checked as positive finite numbers, but
 * the window they map to, `burst · 1000 / rate`, is not: a rate that small overflows it to
 * `Infinity`. No algorithm works on an infinite window (every decision is NaN), so the limiter
 * treats each one as a store failure and admits everything, advertising `q=NaN;w=Infinity`.
 */
describe('a { rate, burst } policy whose window overflows', () => {
  const policy = { rate: 1e-310, burst: 1 };

  it('is refused by resolvePolicy with a typed error', () => {
    expect(() => resolvePolicy(policy, 'token-bucket')).toThrow(
      expect.objectContaining({ code: 'HEADWAY_INVALID_OPTION' }),
    );
  });

  it('is refused when rateLimit is called, not admitted on every request', async () => {
    let limiter: ReturnType<typeof rateLimit> | undefined;
    let error: unknown;
    try {
      limiter = rateLimit({ clock: new ManualClock(1000), policy });
    } catch (caught) {
      error = caught;
    }
    if (limiter) {
      await limiter.check(new Request('http://api.test/'), { ip: '192.0.2.1' });
      const second = await limiter.check(new Request('http://api.test/'), { ip: '192.0.2.1' });
      expect(second.status).toBe(429);
    } else {
      expect(error).toMatchObject({ code: 'HEADWAY_INVALID_OPTION' });
    }
  });
});
