/**
 * Bad input gets a clear typed error: undici refuses a dispatch whose `method` is not a string
 * with `InvalidArgumentError` (`UND_ERR_INVALID_ARG`, "method must be a string"), and so does
 * `undici.request(url, { method })`. Through the interceptor the same call must fail the same way
 * (README, "Pace code you don't own": only the transport differs; the engine's `refused` path ends
 * such a call with the transport's own error). A real server on 127.0.0.1; no timing.
 */
import { Agent, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { headwayInterceptor } from '../../src/undici/index.js';
import { listen } from '../server/loopback.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('headwayInterceptor: a method that is not a string', () => {
  it('rejects with undici’s InvalidArgumentError, not a TypeError from inside Headway', async () => {
    const server = await listen((_req, res) => res.end('ok'));
    cleanups.push(server.close);
    const agent = new Agent();
    cleanups.push(() => agent.close());
    const dispatcher = agent.compose(headwayInterceptor());

    const error = await request(`${server.url}/item`, { dispatcher, method: 42 as never }).catch(
      (e: unknown) => e as { code?: string; message?: string },
    );
    expect(error).toMatchObject({ code: 'UND_ERR_INVALID_ARG', message: 'method must be a string' });
  });
});
