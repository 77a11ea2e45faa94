import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { rateLimit } from '../../src/server/rate-limit.js';

const turns = () => new Promise<void>((resolve) => setImmediate(resolve));

// README "Options": `cost` is `(request) => number`; an `async` cost (an easy slip when the estimate
// reads something asynchronous) is refused with `HEADWAY_INVALID_COST` by `checkCost`. But when that
// promise rejects, src/server/rate-limit.ts (`withPolicy`) throws the InvalidCostError without ever
// handling the rejection: under Node's default `--unhandled-rejections=throw` the process ends. The
// client fixed the same slip (src/client/cost.ts, test/client/cost-async-refused.test.ts).
describe('server cost: an async estimate that rejects', () => {
  const seen: unknown[] = [];
  const onUnhandled = (reason: unknown) => seen.push(reason);
  afterEach(() => {
    process.off('unhandledRejection', onUnhandled);
    seen.length = 0;
  });

  it('rejects check() with HEADWAY_INVALID_COST and leaves no unhandled rejection', async () => {
    process.on('unhandledRejection', onUnhandled);
    const limiter = rateLimit({
      clock: new ManualClock(),
      // What `async (request) => await estimate(request)` returns when the estimator fails.
      cost: (() => Promise.reject(new Error('estimator down'))) as unknown as () => number,
    });
    const settled = await limiter.check(new Request('http://api.test/'), { ip: 'a' }).then(
      (outcome) => ({ status: outcome.status }),
      (error: unknown) => error,
    );
    expect(settled).toMatchObject({ code: 'HEADWAY_INVALID_COST' });
    for (let i = 0; i < 3; i++) await turns();
    expect(seen).toEqual([]);
  });
});
