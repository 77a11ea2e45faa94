/**
 * README ("Server > Options"): "Options are validated when `rateLimit` is called; a bad one throws
 * `HEADWAY_INVALID_OPTION` with a fix". `validateOptions` (src/server/validate-options.ts) merges
 * whatever it is given over the defaults with `withDefaults` and checks only the names it knows,
 * and `resolvePolicy` (src/server/policy.ts) reads only the fields it knows: a misspelt name is
 * silently dropped and the default applies. `{ header: 'draft-6' }` sends the IETF fields,
 * `policy: { limit: 5, window: 1_000 }` admits 5 per minute instead of 5 per second, and
 * `memoryStore({ maxkeys })` / `redisStore({ timeoutMs })` keep their defaults. Each must be an
 * `InvalidOptionError` naming the unknown option.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { redisStore } from '../../src/redis/index.js';
import { rateLimit } from '../../src/server/rate-limit.js';
import { memoryStore } from '../../src/stores/memory.js';
import { refusedOption } from '../support/refused-option.js';

const clock = new ManualClock(0, Date.UTC(2026, 0, 1));

describe('rateLimit refuses option names it does not know', () => {
  it.each([
    ['header', { header: 'draft-6' }],
    ['algorithim', { algorithm: undefined, algorithim: 'sliding-log' }],
    ['failClosed', { failClosed: true }],
    ['storeTimeout', { storeTimeout: 5 }],
  ])('a misspelt or misplaced `%s` is an InvalidOptionError naming it', (name, options) => {
    expect(refusedOption(() => rateLimit({ clock, ...(options as object) }))).toBe(name);
  });

  it('a misspelt policy field (`window`) is refused rather than read as the 60 s default', async () => {
    const make = () => rateLimit({ clock, policy: { limit: 5, window: 1_000 } as never });
    expect(refusedOption(make)).toBe('policy.window');
  });
});

describe('the stores refuse option names they do not know', () => {
  it('memoryStore: a misspelt `maxkeys`', () => {
    expect(refusedOption(() => memoryStore({ clock, maxkeys: 10 } as never))).toBe('maxkeys');
  });

  it('redisStore: `timeoutMs` for `commandTimeoutMs`', () => {
    const client = { evalsha: async () => [0], eval: async () => [0] };
    expect(refusedOption(() => redisStore({ client, timeoutMs: 5_000 } as never))).toBe('timeoutMs');
  });
});
