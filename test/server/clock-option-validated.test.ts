import { describe, expect, it } from 'vitest';
import type { Clock } from '../../src/core/clock.js';
import { rateLimit } from '../../src/server/rate-limit.js';

/**
 * README "Options": "Options are validated when `rateLimit` is called; a bad one throws
 * `HEADWAY_INVALID_OPTION` with a fix". `clock` is one of the documented options, and the client's
 * `createFetch` validates the same option ("Expected `clock` to be a Clock (an object with now(),
 * wallNow() and sleep(ms, signal))"); `rateLimit` does not look at it.
 */
describe('rateLimit validates `clock` at construction', () => {
  it('refuses a clock without wallNow() with HEADWAY_INVALID_OPTION naming `clock`', async () => {
    const clock = { now: () => 0, sleep: () => Promise.resolve() } as unknown as Clock;
    let thrown: unknown;
    try {
      rateLimit({ clock });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: 'HEADWAY_INVALID_OPTION', option: 'clock' });
  });

  it.each([
    ['null', null],
    ['a number', 5],
    ['an empty object', {}],
  ])(
    'refuses %s as clock with HEADWAY_INVALID_OPTION, not a TypeError from the memory store',
    (_label, clock) => {
      expect(() => rateLimit({ clock: clock as unknown as Clock })).toThrow(
        expect.objectContaining({ code: 'HEADWAY_INVALID_OPTION', option: 'clock' }),
      );
    },
  );
});
