import { describe, expect, it } from 'vitest';
import { algorithms } from '../../src/core/algorithms/index.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { rateLimit } from '../../src/server/rate-limit.js';

/**
 * A `{ rate, burst }` policy under `fixed-window` is a window of `burst · 1000 / rate` ms, which is
 * not a whole number of ms for e.g. 15/s (66.67 ms). The README promises a retry of the same cost at
 * `now + retryAfterMs` is admitted, and that a client obeying `retry-after-ms` is admitted.
 */
describe('fixed window whose length is not a whole number of ms', () => {
  const limit = { algorithm: 'fixed-window' as const, limit: 1, windowMs: 1000 / 15 };

  it('admits a retry at now + retryAfterMs (algorithm)', () => {
    const first = algorithms['fixed-window'].take(undefined, limit, 934, 1);
    expect(first.decision.allowed).toBe(true);
    const refused = algorithms['fixed-window'].take(first.state, limit, 934, 1);
    expect(refused.decision.allowed).toBe(false);
    const wait = refused.decision.retryAfterMs;
    // The window ends at 1000 ms on paper; in floating point `floor(1000 / 66.666…)` is still 14,
    // so the first whole ms of the next window is 1001.
    expect(wait).toBe(67);
    expect(algorithms['fixed-window'].take(first.state, limit, 934 + wait - 1, 1).decision.allowed).toBe(
      false,
    );
    expect(algorithms['fixed-window'].take(first.state, limit, 934 + wait, 1).decision).toMatchObject({
      allowed: true,
    });
  });

  it('admits a client that waits exactly retry-after-ms (limiter, { rate: 15, burst: 1 })', async () => {
    const clock = new ManualClock();
    const limiter = rateLimit({
      clock,
      algorithm: 'fixed-window',
      policy: { rate: 15, burst: 1 },
      retryAfterMsHeader: true,
    });
    await clock.advance(934);
    expect((await limiter.check(new Request('http://api.test/'), { ip: 'a' })).allowed).toBe(true);
    const refused = await limiter.check(new Request('http://api.test/'), { ip: 'a' });
    expect(refused.status).toBe(429);
    const waitMs = Number(refused.headers.find(([name]) => name === 'retry-after-ms')![1]);
    expect(waitMs).toBeGreaterThan(0);
    await clock.advance(waitMs);
    const retried = await limiter.check(new Request('http://api.test/'), { ip: 'a' });
    expect(retried.status).toBe(200);
  });
});
