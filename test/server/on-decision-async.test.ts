import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { rateLimit } from '../../src/server/rate-limit.js';

const turns = () => new Promise<void>((resolve) => setImmediate(resolve));

// TSDoc of `onDecision` (src/server/options.ts): "errors it throws are ignored" — a hook that
// fails must never break the request it observes. An `async` hook (e.g. one that awaits a metrics
// exporter) is a valid `(event) => void`; its failure is a rejected promise, which the limiter drops
// unhandled: under Node's default `--unhandled-rejections=throw` that ends the process.
describe('onDecision', () => {
  const seen: unknown[] = [];
  const onUnhandled = (reason: unknown) => seen.push(reason);
  afterEach(() => {
    process.off('unhandledRejection', onUnhandled);
    seen.length = 0;
  });

  it('ignores an asynchronous hook that rejects (no unhandled rejection)', async () => {
    process.on('unhandledRejection', onUnhandled);
    const limiter = rateLimit({
      clock: new ManualClock(),
      onDecision: async () => {
        throw new Error('exporter down');
      },
    });
    const outcome = await limiter.check(new Request('http://api.test/'), { ip: 'a' });
    expect(outcome.status).toBe(200);
    for (let i = 0; i < 3; i++) await turns();
    expect(seen).toEqual([]);
  });
});
