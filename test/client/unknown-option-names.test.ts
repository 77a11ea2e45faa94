/**
 * "Every option is optional" — but an option given under a name Headway does not know is not an
 * option at all. README ("Client options"): options are resolved in one place and "each entry is
 * validated when the client is made"; conventions: validate eagerly, one message shape. Yet
 * `resolveClientOptions` (src/client/options.ts) collects every unknown name into `...keyOptions`
 * and `withDefaults` merges it in, and each `hosts` entry is merged the same way: a typo such as
 * `burts`, `maxRetry` or `retry` silently means the default, and a `hosts` entry that names an
 * option the README's table lists but a host entry cannot take (`profile`, typed `Partial<options>`
 * in the table) does nothing. Each must be an `InvalidOptionError` naming the option.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { refusedOption } from '../support/refused-option.js';
import { fakeFetch } from './fake-server.js';

const clock = new ManualClock(0, Date.UTC(2026, 0, 1));
const { fetch: transport } = fakeFetch(clock, () => ({ status: 200 }));

describe('createFetch refuses option names it does not know', () => {
  it.each([
    ['burts', { rate: 10, burts: 5 }],
    ['maxRetry', { maxRetry: 5 }],
    ['retry', { retry: 0 }],
    ['maxRetryAfter', { maxRetryAfter: 120_000 }],
  ])('a misspelt `%s` is an InvalidOptionError naming it, not the default', (name, options) => {
    expect(refusedOption(() => createFetch({ fetch: transport, clock, ...(options as object) }))).toBe(name);
  });

  it('a misspelt option in a `hosts` entry is refused, naming the host entry', () => {
    const make = () =>
      createFetch({ fetch: transport, clock, hosts: { 'api.openai.com': { retires: 4 } as never } });
    expect(refusedOption(make)).toBe('hosts["api.openai.com"].retires');
  });

  it('a `hosts` entry naming a client-wide option (`profile`) is refused rather than ignored', () => {
    const make = () =>
      createFetch({ fetch: transport, clock, hosts: { 'api.openai.com': { profile: 'batch' } as never } });
    expect(refusedOption(make)).toBe('hosts["api.openai.com"].profile');
  });
});
