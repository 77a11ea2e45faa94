/**
 * `hosts` matches by host name or `host:port` (README, Client options). An entry that names the
 * scheme's default port (`:443` for https) is a `host:port` like any other.
 */
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { fakeFetch, runUntilSettled } from './fake-server.js';

const clock = new ManualClock(0, Date.UTC(2026, 10, 30));
const { fetch: transport } = fakeFetch(clock, () => ({ status: 200 }));

/** Resolves to 'sent', or to the error's class name. */
const outcome = (p: Promise<Response>) =>
  p.then(
    () => 'sent',
    (error: unknown) => (error as Error).constructor.name,
  );

describe('hosts, host:port with the default port', () => {
  it("an entry for 'api.example.com:443' applies to https://api.example.com:443/ and https://api.example.com/", async () => {
    // The entry's burst of 5 lets a call of cost 3 go; the client's burst of 2 refuses it.
    const fetch = createFetch({
      fetch: transport,
      clock,
      cost: () => 3,
      rate: 100,
      burst: 2,
      hosts: { 'api.example.com:443': { rate: 1, burst: 5 } },
    });
    const calls = [
      outcome(fetch('https://api.example.com:443/x')),
      outcome(fetch('https://api.example.com/x')),
    ];
    // The second waits for the entry's bucket (1/s) to hold 3 again: the clock moves on.
    const results = await runUntilSettled(clock, calls, 500);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : r.reason))).toEqual(['sent', 'sent']);
  });
});
