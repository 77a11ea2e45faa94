import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { rateLimit } from '../../src/server/rate-limit.js';
import { readRateLimit } from '../../src/signals/read-rate-limit.js';

/**
 * README, Header dialects: "`t`/`reset` are seconds until the quota is whole again, rounded up".
 * Under `sliding-window-counter` a window's count keeps weighing on the estimate for a whole window
 * after that window ends, so `t` runs to the end of the next window (as the Redis store's script).
 */
describe('sliding-window-counter reset (`t`)', () => {
  it('says when the quota is whole again, not when the aligned window ends', async () => {
    const clock = new ManualClock();
    const limiter = rateLimit({
      clock,
      algorithm: 'sliding-window-counter',
      policy: { limit: 100, windowMs: 60_000 },
      cost: () => 100,
    });
    const request = () => new Request('http://api.test/');
    await clock.advance(59_000);
    const spent = await limiter.check(request(), { ip: 'a' });
    expect(spent.allowed).toBe(true);
    const signal = readRateLimit(
      { status: spent.status, headers: new Headers(spent.headers) },
      { receivedAt: clock.wallNow() },
    );
    expect(signal.remaining).toBe(0);
    const resetInMs = signal.resetInMs!;
    await clock.advance(resetInMs);
    // A client that waits `t` and sends a full quota's worth: the quota is whole again by then.
    const after = await limiter.check(request(), { ip: 'a' });
    expect(after.allowed).toBe(true);
  });
});
