/**
 * README, Client options: `hosts` is "per-host overrides, by host name (`'api.github.com'`) or
 * `host:port`"; the TSDoc of `hosts` (src/client/options.ts): "host and port (`'localhost:8080'`,
 * which wins over the bare name)". An entry that spells the scheme's default port
 * (`'api.example.com:443'`) names `https://api.example.com/` (test/client/hosts-default-port.test.ts),
 * yet beside a bare `'api.example.com'` entry it loses: `https://api.example.com/` takes the bare
 * name's options, and the `:443` entry is never used for the URL it names. Observed through `burst`,
 * which a call costing more breaks at once (InvalidCostError), so nothing waits.
 *
 * Fixed on 2026-12-06 (the fifth review round): the entry with the default port is looked up before
 * the bare name. What the text above describes is how it behaved before.
 */
import type { Dispatcher } from 'undici';
import { describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { headwayInterceptor } from '../../src/undici/interceptor.js';
import { fakeFetch } from './fake-server.js';

const clock = new ManualClock(0, Date.UTC(2026, 10, 30));
const { fetch: transport } = fakeFetch(clock, () => ({ status: 200 }));

/** Resolves to 'sent', or to the error's class name. */
const outcome = (p: Promise<Response>) =>
  p.then(
    () => 'sent',
    (error: unknown) => (error as Error).constructor.name,
  );

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
