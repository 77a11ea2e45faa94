import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { rateLimit } from '../../src/server/rate-limit.js';

/** `metricsMaxKeys`: "Most keys tracked by the metrics" — `metrics().keys` never holds more. */
describe('metricsMaxKeys bounds metrics().keys', () => {
  it.each([1, 3, 10])('holds at most %i keys', async (max) => {
    const limiter = rateLimit({ metricsMaxKeys: max, clock: new ManualClock() });
    for (let i = 0; i < 50; i++) await limiter.check(new Request('http://api.test/'), { ip: `10.0.0.${i}` });
    expect(limiter.metrics().allowed).toBe(50);
    expect(limiter.metrics().keys.length).toBeLessThanOrEqual(max);
  });
});
