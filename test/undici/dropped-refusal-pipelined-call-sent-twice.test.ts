/**
 * README, "Pace code you don't own": "Or compose the interceptor onto a dispatcher of your own";
 * "Backpressure holds": "An answer kept for a retry is read to its end while its body is short (up
 * to 64 KiB, a refusal's usual line of JSON), so its connection is free for other calls". Before
 * bdc7e85 a dropped answer's short body was read to its end (`drop()`: "the connection stays
 * usable").
 *
 * Since bdc7e85 an answer dropped before its body has ended is aborted, which destroys its
 * connection. On a `Client` with `pipelining`, the calls written behind it on that connection were
 * already received (and counted) by the server; undici sends them again on a new connection: the
 * server gets the other call twice — a unit of its quota spent for nothing, a GET with side effects
 * run twice. Here a 429 (`Retry-After: 1`, body `slow down` sent after its head) is held while
 * `/b` is pipelined behind it; the body arrives just after its retry leaves.
 *
 * Found on 2026-12-06 (session 25, a review of that day's changes) against bdc7e85 (the
 * interceptor aborting a dropped answer whose body had not ended); the change was taken back the
 * same day, and this test keeps its regression out: it passes on the code without it. The figures
 * above are that change's, against the code before and after it.
 */
import { Client, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { headwayInterceptor } from '../../src/undici/index.js';
import { attemptSpy, refusalServer } from './refusal-server.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('headwayInterceptor on a pipelining Client: a refusal dropped before its body ended', () => {
  it('another call pipelined behind it on the connection reaches the server once', async () => {
    const { url, seen, release } = await refusalServer(cleanups, { retryAfter: '1', body: 'late' });

    const clock = new ManualClock(0, Date.UTC(2026, 10, 30));
    const client = new Client(url, { pipelining: 2 });
    cleanups.push(() => client.destroy());
    // The retry has left (the answer it replaces was dropped first): the refusal's body comes now.
    const spy = attemptSpy((n) => n === 2 && release());
    const paced = client.compose(spy.interceptor, headwayInterceptor({ clock, random: () => 0 }));

    const settled: Array<string | null> = [null, null];
    request(`${url}/a`, { dispatcher: paced }).then(
      async (r) => (settled[0] = `${r.statusCode} ${await r.body.text()}`),
      (error: unknown) => (settled[0] = `error ${String(error)}`),
    );
    // Wait (real time, the clock stands) until the refusal's head is in and /b is on the wire.
    for (let i = 0; i < 200 && seen.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 2));
    request(`${url}/b`, { dispatcher: client }).then(
      async (r) => (settled[1] = `${r.statusCode} ${await r.body.text()}`),
      (error: unknown) => (settled[1] = `error ${String(error)}`),
    );
    for (let i = 0; i < 200 && !seen.includes('/b'); i++)
      await new Promise((resolve) => setTimeout(resolve, 2));
    expect(seen).toEqual(['/a', '/b']);

    for (let step = 0; step < 200 && settled.includes(null); step++) {
      await clock.advance(50);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }

    expect(settled).toEqual(['200 ok', '200 ok']);
    expect(seen.filter((path) => path === '/b')).toHaveLength(1);
  });
});
