/**
 * Every option is validated when the client is made, with `InvalidOptionError`: never a
 * `TypeError` at construction, and never a bad option found only at the first call.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import type { Clock } from '../../src/core/clock.js';
import { InvalidOptionError } from '../../src/errors.js';

describe('option shapes', () => {
  it('rejects a clock that is not a Clock at construction', () => {
    expect(() => createFetch({ clock: {} as Clock })).toThrow(InvalidOptionError);
  });

  it.each([
    ['backoff', { backoff: null }],
    ['retryBudget', { retryBudget: null }],
    ['hosts entry backoff', { hosts: { 'api.example.com': { backoff: null } } }],
  ])('rejects %s: null with InvalidOptionError, not a TypeError', (_name, options) => {
    expect(() => createFetch(options as never)).toThrow(InvalidOptionError);
  });

  it('names a backoff field by its path, as retryBudget fields are named', () => {
    let error: unknown;
    try {
      createFetch({ backoff: { baseMs: 0, capMs: 100 } });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidOptionError);
    expect((error as InvalidOptionError).option).toBe('backoff.baseMs');
  });
});
