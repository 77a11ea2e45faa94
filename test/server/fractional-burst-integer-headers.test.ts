import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import type { HeaderDialect } from '../../src/server/headers/types.js';
import { rateLimit } from '../../src/server/rate-limit.js';

const request = () => new Request('http://api.test/items');
const header = (outcome: { headers: Array<[string, string]> }, name: string) =>
  outcome.headers.find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1];
const WHOLE = /^\d+$/;

/**
 * `{ rate: 2.5 }` is a valid policy (README "Options": `burst` defaults to `max(1, rate)`, so 2.5;
 * `headway serve --rate 2.5` makes the same one). Every dialect's limit must still be a whole
 * number: draft-6 `RateLimit-Limit` and draft-7 `limit` are sf-Integers ("its value is a
 * non-negative Integer"), `X-RateLimit-Limit` is a count, and README "Header dialects" says the
 * headers state whole units. `remaining` is already whole (floored); the limit is written raw.
 */
describe('a policy with a fractional burst', () => {
  const policy = { rate: 2.5 }; // burst 2.5: two whole requests at once

  it('draft-6 writes RateLimit-Limit as a whole number', async () => {
    const limiter = rateLimit({ clock: new ManualClock(), policy, headers: 'draft-6' });
    const outcome = await limiter.check(request(), { ip: '192.0.2.1' });
    expect(header(outcome, 'RateLimit-Limit')).toMatch(WHOLE);
  });

  it('draft-7 writes limit= as an sf-Integer', async () => {
    const limiter = rateLimit({ clock: new ManualClock(), policy, headers: 'draft-7' });
    const outcome = await limiter.check(request(), { ip: '192.0.2.1' });
    const limit = /(?:^|,\s*)limit=([^,]*)/.exec(header(outcome, 'RateLimit') ?? '')?.[1];
    expect(limit).toMatch(WHOLE);
  });

  it('x-ratelimit writes whole numbers, and Used + Remaining = Limit after one request', async () => {
    const limiter = rateLimit({ clock: new ManualClock(), policy, headers: 'x-ratelimit' });
    const outcome = await limiter.check(request(), { ip: '192.0.2.1' });
    const limit = header(outcome, 'X-RateLimit-Limit');
    const remaining = header(outcome, 'X-RateLimit-Remaining');
    const used = header(outcome, 'X-RateLimit-Used');
    expect({ limit: WHOLE.test(limit ?? ''), used }).toEqual({ limit: true, used: '1' });
    expect(Number(used) + Number(remaining)).toBe(Number(limit));
  });

  it.each(['draft-6', 'x-ratelimit'] as HeaderDialect[])(
    '%s writes a whole limit when the store failed too (policy headers only)',
    async (headers) => {
      const failing = {
        take: () => Promise.reject(new Error('down')),
        reserve: () => new Promise<never>(() => {}),
        holdGate: () => new Promise<never>(() => {}),
        gateWait: () => new Promise<never>(() => {}),
      };
      const limiter = rateLimit({ clock: new ManualClock(), policy, headers, store: failing });
      const outcome = await limiter.check(request(), { ip: '192.0.2.1' });
      if (headers === 'draft-6') {
        // No `RateLimit-Limit` without its `RateLimit-Reset`: the policy alone, its quota whole.
        expect(header(outcome, 'RateLimit-Limit')).toBeUndefined();
        expect(header(outcome, 'RateLimit-Policy')?.split(';')[0]).toMatch(WHOLE);
      } else expect(header(outcome, 'X-RateLimit-Limit')).toMatch(WHOLE);
    },
  );
});
