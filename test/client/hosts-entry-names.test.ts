/**
 * How a `hosts` entry names a host (README, Client options: "by host name (`'api.github.com'`, any
 * case, an IDN as written or in punycode) or `host:port` (which wins over the bare name, the
 * default port too)"), spelled as a request's URL spells its host:
 * - an entry that names the scheme's default port (`:443` for https) is a `host:port` like any
 *   other, and wins over a bare-name entry (fifth review round, 2026-12-06: the bare name won,
 *   since `URL#host` leaves the default port out and was looked up first);
 * - an internationalized name written as the user writes it (`'bücher.example'`) names the host
 *   and its punycode (fifth round: entries were only lower-cased and never matched).
 * Observed through `burst`, which a call costing more breaks at once (InvalidCostError).
 */
import type { Dispatcher } from 'undici';
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { headwayInterceptor } from '../../src/undici/interceptor.js';
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

describe('hosts: a `host:port` entry with the default port beside the bare name', () => {
  it("'api.example.com:443' wins over 'api.example.com' for https://api.example.com/", async () => {
    const fetch = createFetch({
      fetch: transport,
      clock,
      cost: () => 3,
      hosts: {
        'api.example.com': { rate: 1, burst: 1 }, // plain http, say
        'api.example.com:443': { rate: 1, burst: 5 }, // the https API: a call of cost 3 fits
      },
    });
    const https = await outcome(fetch('https://api.example.com/v1/items'));
    expect(https).toBe('sent');
  });

  it("'api.example.com:80' wins over 'api.example.com' for http://api.example.com:80/", async () => {
    const fetch = createFetch({
      fetch: transport,
      clock,
      cost: () => 3,
      hosts: {
        'api.example.com': { rate: 1, burst: 1 },
        'api.example.com:80': { rate: 1, burst: 5 },
      },
    });
    const http = await outcome(fetch('http://api.example.com:80/v1/items'));
    expect(http).toBe('sent');
  });

  it("through the undici interceptor too: origin 'https://api.example.com' takes the ':443' entry", async () => {
    // A next dispatcher that answers every dispatch 200 in a microtask.
    const answering: Dispatcher.Dispatch = (_opts, handler) => {
      const c = { abort() {}, pause() {}, resume() {}, aborted: false, paused: false, reason: null };
      queueMicrotask(() => {
        const controller = c as unknown as Dispatcher.DispatchController;
        handler.onRequestStart?.(controller, {});
        handler.onResponseStart?.(controller, 200, {}, 'OK');
        handler.onResponseEnd?.(controller, {});
      });
      return true;
    };
    const dispatch = headwayInterceptor({
      clock,
      cost: () => 3,
      hosts: {
        'api.example.com': { rate: 1, burst: 1 },
        'api.example.com:443': { rate: 1, burst: 5 },
      },
    })(answering);
    const result = await new Promise<string>((resolve) => {
      dispatch(
        { origin: 'https://api.example.com', path: '/v1/items', method: 'GET' },
        {
          onResponseEnd: () => resolve('sent'),
          onResponseError: (_c, error) => resolve(error.constructor.name),
        },
      );
    });
    expect(result).toBe('sent');
  });
});

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
