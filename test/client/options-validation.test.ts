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

  /** The option an `InvalidOptionError` from `createFetch(options)` names, or `null` when it is made. */
  const refusedOption = (options: unknown): string | null => {
    try {
      createFetch(options as never);
      return null;
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidOptionError);
      return (error as InvalidOptionError).option;
    }
  };

  it.each([
    ['backoff.capMS', { backoff: { baseMs: 50, capMs: 1000, capMS: 500 } }],
    ['retryBudget.ttl', { retryBudget: { ratio: 0.1, minPerSecond: 5, ttlMs: 10_000, ttl: 5000 } }],
  ])(
    'a misspelt field inside backoff or retryBudget is refused, named %s (it was ignored)',
    (option, options) => {
      expect(refusedOption(options)).toBe(option);
    },
  );

  it('a rate so small that refilling its burst takes no finite time is refused (a call behind one waited for ever)', () => {
    expect(refusedOption({ rate: 1e-310 })).toBe('rate');
    expect(refusedOption({ hosts: { 'api.example.com': { rate: 1e-310, burst: 2 } } })).toBe(
      'hosts["api.example.com"].rate',
    );
    expect(refusedOption({ rate: 1e-6 })).toBeNull();
  });
});
