import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { rateLimit } from '../../src/server/rate-limit.js';

const req = () => new Request('http://api.test/');

/**
 * A policy is either `limit` per `windowMs` or `rate` with `burst` (src/server/policy.ts, README
 * "A limit has one vocabulary"), and "Options are validated when `rateLimit` is called; a bad one
 * throws `HEADWAY_INVALID_OPTION` with a fix". `resolvePolicy` rejects `limit` beside `rate`
 * ("omitted when `rate` is given (use `rate` + `burst`, or `limit` + `windowMs`)"), but takes
 * `burst` beside `limit`, `windowMs` beside `rate`, and a `failClosed` that is not a boolean, and
 * silently ignores each: the limiter then enforces a limit other than the one written.
 */
describe('policy fields that would do nothing are rejected, not ignored', () => {
  it('rejects `burst` beside `limit` (the burst asked for is not enforced)', () => {
    const make = () =>
      rateLimit({ clock: new ManualClock(), policy: { limit: 100, windowMs: 60_000, burst: 10 } });
    expect(make).toThrow(expect.objectContaining({ code: 'HEADWAY_INVALID_OPTION' }));
  });

  it('rejects `windowMs` beside `rate`', () => {
    expect(() => rateLimit({ clock: new ManualClock(), policy: { rate: 10, windowMs: 5_000 } })).toThrow(
      expect.objectContaining({ code: 'HEADWAY_INVALID_OPTION' }),
    );
  });

  it('rejects the same mixtures from policyFor() at check time', async () => {
    const limiter = rateLimit({ clock: new ManualClock(), policyFor: () => ({ limit: 100, burst: 10 }) });
    await expect(limiter.check(req(), { ip: '192.0.2.1' })).rejects.toMatchObject({
      code: 'HEADWAY_INVALID_OPTION',
    });
  });

  it('rejects a failClosed that is not a boolean (a string "true" from config must not fail open)', () => {
    const policy = { limit: 5, name: 'login', failClosed: 'true' as unknown as boolean };
    expect(() => rateLimit({ clock: new ManualClock(), policy })).toThrow(
      expect.objectContaining({ code: 'HEADWAY_INVALID_OPTION' }),
    );
  });
});
