/**
 * README ("Server > Options"): `retryAfterMsHeader` is "`boolean`: also send the exact
 * `retry-after-ms`", default `false`, and "a bad one throws `HEADWAY_INVALID_OPTION`". A policy's
 * `failClosed` is checked to be a boolean (test/server/policy-fields-that-do-nothing.test.ts), but
 * `validateOptions` (src/server/validate-options.ts) never checks `retryAfterMsHeader`: a value
 * from config or an environment variable (`'false'`, `'0'`) is truthy, and every refusal then
 * carries the header the user turned off.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { rateLimit } from '../../src/server/rate-limit.js';

describe('retryAfterMsHeader that is not a boolean', () => {
  it.each(['false', '0', 1])('%j is refused at construction, naming the option', (value) => {
    let error: unknown;
    try {
      rateLimit({ clock: new ManualClock(), retryAfterMsHeader: value as unknown as boolean });
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'HEADWAY_INVALID_OPTION', option: 'retryAfterMsHeader' });
  });
});
