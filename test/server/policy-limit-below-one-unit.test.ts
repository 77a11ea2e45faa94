/**
 * README "Options": "Options are validated when `rateLimit` is called; a bad one throws
 * `HEADWAY_INVALID_OPTION` with a fix", and `resolvePolicy`'s own hint says "a limit needs at
 * least one unit per window". With the default `cost` (`() => 1`), a policy whose `limit` (or
 * `burst`) is below 1 can never admit a request — the same case `headway serve --burst 0.5` and the
 * client (`burst` "at least 1 without a `cost` option") refuse up front.
 *
 * So `rateLimit` refuses such a policy when it is made (it was accepted, and then every `check`
 * rejected with `HEADWAY_INVALID_COST`, a 500 under every adapter).
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { isHeadwayError } from '../../src/errors.js';
import { rateLimit } from '../../src/server/rate-limit.js';

describe('rateLimit with the default cost and a policy below one unit', () => {
  it.each([
    ['limit 0.5 per second', { limit: 0.5, windowMs: 1000 }],
    ['rate 2, burst 0.5', { rate: 2, burst: 0.5 }],
  ])('%s: refused at construction with HEADWAY_INVALID_OPTION', async (_label, policy) => {
    const clock = new ManualClock();
    let made: ReturnType<typeof rateLimit> | undefined;
    let refused: unknown;
    try {
      made = rateLimit({ clock, policy });
    } catch (error) {
      refused = error;
    }
    const firstCheck = made
      ? await made.check(new Request('http://api.test/'), { ip: '192.0.2.1' }).then(
          (outcome) => `answered ${outcome.status}`,
          (error: unknown) => `rejected ${isHeadwayError(error) ? error.code : String(error)}`,
        )
      : undefined;
    expect({ construction: isHeadwayError(refused) ? refused.code : 'accepted', firstCheck }).toEqual({
      construction: 'HEADWAY_INVALID_OPTION',
      firstCheck: undefined,
    });
  });
});
