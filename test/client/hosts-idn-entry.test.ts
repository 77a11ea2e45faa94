/**
 * README, Client options: `hosts` is "per-host overrides, by host name (`'api.github.com'`) or
 * `host:port`"; entries are matched whatever their case (`'API.GitHub.com'` names api.github.com).
 * An internationalized host name, written as the user writes it in the URL (`'bücher.example'`),
 * never matches: a URL's `host` is its punycode (`xn--bcher-kva.example`) and the entry is only
 * lower-cased, so `https://bücher.example/` (and `https://xn--bcher-kva.example/`, the same host)
 * silently get the client's options instead of the entry's. Observed through `burst`, which a call
 * costing more breaks at once (InvalidCostError), so nothing waits.
 *
 * Fixed on 2026-12-06 (the fifth review round): entry names are spelled as a URL spells its host
 * (lower case, punycode, the port without leading zeros). What the text above describes is how it
 * behaved before.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { fakeFetch } from './fake-server.js';

const clock = new ManualClock(0, Date.UTC(2026, 10, 30));
const { fetch: transport } = fakeFetch(clock, () => ({ status: 200 }));

/** Resolves to 'sent', or to the error's class name. */
const outcome = (p: Promise<Response>) =>
  p.then(
    () => 'sent',
    (error: unknown) => (error as Error).constructor.name,
  );

describe('hosts: an internationalized host name', () => {
  it("an entry 'bücher.example' applies to https://bücher.example/ and to its punycode", async () => {
    const fetch = createFetch({
      fetch: transport,
      clock,
      cost: () => 3,
      rate: 100,
      burst: 2, // the client's: a call of cost 3 does not fit
      hosts: { 'bücher.example': { rate: 1, burst: 100 } }, // the entry's: both calls fit
    });
    const results = [
      await outcome(fetch('https://bücher.example/books')),
      await outcome(fetch('https://xn--bcher-kva.example/books')),
    ];
    expect(results).toEqual(['sent', 'sent']);
  });
});
