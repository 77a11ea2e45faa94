/**
 * `hosts`: per-host key options in one map, resolved in one place (defaults < client < host <
 * `policyFor(key)`), validated at construction. Observed through `burst`, which a cost above it
 * breaks at once (InvalidCostError), so nothing waits.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { InvalidCostError, InvalidOptionError } from '../../src/errors.js';
import { fakeFetch } from './fake-server.js';

const clock = new ManualClock(0, Date.UTC(2026, 10, 30));
const { fetch: transport } = fakeFetch(clock, () => ({ status: 200 }));
const cost = () => 3;

/** Resolves to 'sent', or to the error's class name. */
const outcome = (p: Promise<Response>) =>
  p.then(
    () => 'sent',
    (error: unknown) => (error as Error).constructor.name,
  );

describe('hosts', () => {
  it('gives each host its entry, `host:port` over the bare name, and `policyFor(key)` over both', async () => {
    const fetch = createFetch({
      fetch: transport,
      clock,
      cost,
      rate: 100,
      burst: 2,
      hosts: {
        'a.test': { rate: 1, burst: 5 },
        'b.test:8080': { rate: 1, burst: 4 },
        'b.test': { rate: 1, burst: 1 },
      },
      policyFor: (key) => (key === 'http://c.test' ? { burst: 3 } : undefined),
    });
    expect(await outcome(fetch('http://a.test/x'))).toBe('sent');
    expect(await outcome(fetch('http://b.test:8080/x'))).toBe('sent');
    expect(await outcome(fetch('http://b.test/x'))).toBe(InvalidCostError.name);
    expect(await outcome(fetch('http://other.test/x'))).toBe(InvalidCostError.name); // the client's burst: 2
    expect(await outcome(fetch('http://c.test/x'))).toBe('sent');
  });

  it('validates every entry when the client is made, naming the host', () => {
    expect(() => createFetch({ hosts: { 'api.github.com': { rate: -1 } } })).toThrow(InvalidOptionError);
    expect(() => createFetch({ hosts: { 'api.github.com': { rate: -1 } } })).toThrow(
      'Expected `hosts["api.github.com"].rate` to be a positive finite number, got `-1` (number)',
    );
    expect(() => createFetch({ hosts: 'api.github.com' as never })).toThrow(/`hosts`/);
  });
});
