/**
 * `serverMetrics().observe(source)` given something without `metrics()` — e.g. the Express
 * middleware (`expressRateLimit(limiter)`, README "Express") instead of the limiter, an easy slip in
 * JavaScript. Bad input must get a clear typed error (house rule). `observe`
 * (src/metrics/server-metrics.ts) accepts anything and adds it to the meter's sources; at each
 * collection the one batch callback calls its `metrics()`, throws, and `headway.server.refused_keys`
 * — "the alert signal … summed over the limiters observed on the meter" (README "Metrics") — is no
 * longer reported at all, for every limiter on that meter, silently.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { isHeadwayError } from '../../src/errors.js';
import { instruments, serverMetrics } from '../../src/metrics/index.js';
import { expressRateLimit } from '../../src/server/adapters/express.js';
import { rateLimit } from '../../src/server/rate-limit.js';
import { inMemoryMeter } from './in-memory.js';

const request = () => new Request('http://api.test/items');

describe('serverMetrics().observe given something that is not a limiter', () => {
  it('refuses it at once with a typed Headway error', async () => {
    const sdk = inMemoryMeter();
    const metrics = serverMetrics({ meter: sdk.meter });
    const limiter = rateLimit({ clock: new ManualClock(), policy: { limit: 1 } });
    let error: unknown;
    try {
      metrics.observe(expressRateLimit(limiter) as never);
    } catch (e) {
      error = e;
    }
    expect(isHeadwayError(error)).toBe(true);
    await sdk.shutdown();
  });

  it("does not erase the real limiters' refused keys from the alert signal", async () => {
    const sdk = inMemoryMeter();
    const metrics = serverMetrics({ meter: sdk.meter });
    const limiter = rateLimit({
      clock: new ManualClock(),
      key: () => 'a',
      policy: { limit: 1, windowMs: 60_000 },
      onDecision: metrics.onDecision,
    });
    metrics.observe(limiter);
    try {
      metrics.observe(expressRateLimit(limiter) as never);
    } catch {
      // whatever it does with the bad source, the limiter's signal must go on
    }
    await limiter.check(request());
    await limiter.check(request());
    expect(limiter.metrics().refusedKeys).toBe(1);

    const recorded = await sdk.collect();
    expect(recorded.get(instruments.serverRefusedKeys.name)?.points).toEqual([{ attributes: {}, value: 1 }]);
    await sdk.shutdown();
  });
});
