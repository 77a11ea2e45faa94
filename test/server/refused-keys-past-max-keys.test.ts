/**
 * `metrics().refusedKeys` is "distinct keys refused … within the last `metricsWindowMs`: the alert
 * signal — many keys refused at once usually means the limit is wrong" (TSDoc of
 * `RateLimitMetrics.refusedKeys`; README "Rolling out a limit": "Many keys: the limit is too
 * tight"). `metricsMaxKeys` (default 1,000) bounds the keys tracked, so the signal may saturate at
 * that bound — but refusing one more distinct key must never make the signal fall.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { rateLimit } from '../../src/server/rate-limit.js';

describe('refusedKeys past metricsMaxKeys', () => {
  it('refusing a 1,001st distinct key (default metricsMaxKeys) does not drop the signal', async () => {
    const clock = new ManualClock();
    const limiter = rateLimit({ clock, policy: { limit: 1, windowMs: 60_000 } });
    const refuse = async (i: number) => {
      const info = { ip: `10.0.${i >> 8}.${i & 255}` };
      await limiter.check(new Request('http://api.test/'), info);
      expect((await limiter.check(new Request('http://api.test/'), info)).status).toBe(429);
    };
    for (let i = 0; i < 1_000; i++) await refuse(i);
    expect(limiter.metrics().refusedKeys).toBe(1_000);
    await refuse(1_000);
    expect(limiter.metrics().refusedKeys).toBeGreaterThanOrEqual(1_000);
  });
});
