/**
 * A request the transport refuses before sending anything (fetch's own `TypeError` for a GET with
 * a body or a URL with credentials; undici's `InvalidArgumentError` for a bad header value), over
 * real HTTP on 127.0.0.1. Plain `fetch` / `undici.request` reject at once; a drop-in must too. It
 * is not a network error: nothing reached the server, so it is neither retried nor an outage that
 * closes the key's gate on every other call of the origin.
 */
import { Agent, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { ManualClock } from '../../src/core/manual-clock.js';
import { headwayInterceptor } from '../../src/undici/index.js';
import { runUntilSettled } from '../client/fake-server.js';
import { listen } from '../server/loopback.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serve(): Promise<{ url: string; seen: string[] }> {
  const seen: string[] = [];
  const server = await listen(async (req, res) => {
    for await (const _ of req) {
      // drain the request body
    }
    seen.push(`${req.method} ${req.url}`);
    res.writeHead(200).end('ok');
  });
  cleanups.push(server.close);
  return { url: server.url, seen };
}

const clockAt = () => new ManualClock(0, Date.UTC(2026, 10, 30));

describe('a request the transport refuses before sending it', () => {
  it('createFetch: a GET with a body rejects with fetch’s TypeError, unretried, and leaves the key’s gate open', async () => {
    const { url, seen } = await serve();
    const clock = clockAt();
    const fetch = createFetch({ clock, random: () => 0.5 });
    const events: string[] = [];
    fetch.onRetry((e) => events.push(`retry:${e.reason}`));
    fetch.onThrottle((e) => events.push(`throttle:${e.reason}`));

    const [bad] = await runUntilSettled(clock, [fetch(`${url}/bad`, { method: 'GET', body: 'x' })], 10);
    expect(bad?.status).toBe('rejected');
    expect((bad as PromiseRejectedResult).reason).toBeInstanceOf(TypeError);
    expect(events).toEqual([]);
    expect(fetch.stats()[0]).toMatchObject({ gate: { open: true } });

    // Another call of the origin goes at once, as it would with plain fetch.
    const [good] = await runUntilSettled(clock, [fetch(`${url}/good`).then((r) => r.text())], 10);
    expect(good).toEqual({ status: 'fulfilled', value: 'ok' });
    expect(events).toEqual([]);
    expect(seen).toEqual(['GET /good']);
  });

  it('createFetch: a URL with credentials rejects with fetch’s TypeError, unretried', async () => {
    const { url, seen } = await serve();
    const clock = clockAt();
    const fetch = createFetch({ clock, random: () => 0.5 });
    const retries: string[] = [];
    fetch.onRetry((e) => retries.push(e.reason));
    const withCredentials = new URL(`${url}/secret`);
    withCredentials.username = 'user';
    withCredentials.password = 'pass';

    const [bad] = await runUntilSettled(clock, [fetch(withCredentials)], 10);
    expect(bad?.status).toBe('rejected');
    expect((bad as PromiseRejectedResult).reason).toBeInstanceOf(TypeError);
    expect(retries).toEqual([]);
    expect(fetch.stats()[0]).toMatchObject({ gate: { open: true } });
    expect(seen).toEqual([]);
  });

  it('interceptor: an invalid header value rejects with UND_ERR_INVALID_ARG, unretried, and leaves the key’s gate open', async () => {
    const { url, seen } = await serve();
    const clock = clockAt();
    const interceptor = headwayInterceptor({ clock, random: () => 0.5 });
    const agent = new Agent();
    cleanups.push(() => agent.close());
    const dispatcher = agent.compose(interceptor);
    const retries: string[] = [];
    interceptor.onRetry((e) => retries.push(e.reason));

    const [bad] = await runUntilSettled(
      clock,
      [request(`${url}/bad`, { dispatcher, headers: { 'x-bad': 'a\r\nb' } })],
      10,
    );
    expect(bad).toMatchObject({ status: 'rejected', reason: { code: 'UND_ERR_INVALID_ARG' } });
    expect(retries).toEqual([]);
    expect(interceptor.stats()[0]).toMatchObject({ gate: { open: true } });
    expect(seen).toEqual([]);
  });
});
