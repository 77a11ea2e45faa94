/**
 * README, "Pace code you don't own" → "Backpressure holds": "Once the retry leaves, the dropped
 * answer's rest is read and ignored, so its keep-alive connection stays usable; a body that has
 * not ended within 5 s of the drop, or by the time the call ends, is aborted and its connection
 * closed". dropped-refusal-pipelined-call-sent-twice.test.ts (the guard of the change taken back
 * on session 25): on a pipelining `Client`, aborting a dropped answer destroys its connection,
 * and undici sends the calls written behind it again — "the server gets the other call twice — a
 * unit of its quota spent for nothing, a GET with side effects run twice".
 *
 * 00135ae keeps the guard's case (the retry answered after the body) but aborts the dropped answer
 * at its call's end. A caller who gives up on the call while its retry waits behind the refusal's
 * body (a Stop button, its own timeout; a `timeoutMs` or `deadlineMs` ends it the same way) ends
 * the call: the refusal is aborted, its connection destroyed, and another caller's `/b`, pipelined
 * behind the refusal and already received by the server, is sent again. Before 00135ae the abort
 * took the retry out of undici's queue (it was never written) and the refusal's body was read when
 * it came: `/b` reached the server once, on the one connection.
 *
 * Found on 2026-12-06 (session 26, a review of 00135ae). Figures: before 00135ae `/b` was seen once
 * over 1 connection; since, twice over 2.
 *
 * Fixed the same day: a call that ends in an error (an abort included) aborts no dropped
 * answer; the refusal's body is read when it comes, within the 5 s its drop allows.
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

const realTime = () => new Promise((resolve) => setTimeout(resolve, 2));

describe('headwayInterceptor on a pipelining Client: a call aborted while its retry waits behind the refusal', () => {
  it('another call pipelined behind the refusal reaches the server once', async () => {
    const { url, seen, state, release } = await refusalServer(cleanups, { retryAfter: '1', body: 'late' });

    const clock = new ManualClock(0, Date.UTC(2026, 10, 30));
    const client = new Client(url, { pipelining: 2 });
    cleanups.push(() => client.destroy());
    // Inside Headway (undici runs the last listed first): counts the attempts dispatched.
    const spy = attemptSpy();
    const paced = client.compose(spy.interceptor, headwayInterceptor({ clock, random: () => 0 }));

    const caller = new AbortController();
    const settled: Array<string | null> = [null, null];
    request(`${url}/a`, { dispatcher: paced, signal: caller.signal }).then(
      async (r) => (settled[0] = `${r.statusCode} ${await r.body.text()}`),
      (error: unknown) => (settled[0] = `error ${(error as Error).name}`),
    );
    // Real time (the clock stands) until the refusal's head is in, then /b goes on the wire behind it.
    for (let i = 0; i < 200 && seen.length === 0; i++) await realTime();
    request(`${url}/b`, { dispatcher: client }).then(
      async (r) => (settled[1] = `${r.statusCode} ${await r.body.text()}`),
      (error: unknown) => (settled[1] = `error ${String(error)}`),
    );
    for (let i = 0; i < 200 && !seen.includes('/b'); i++) await realTime();
    expect(seen).toEqual(['/a', '/b']);
    // Retry-After: 1 passes: the retry leaves (the refusal is dropped) and queues behind /b.
    for (let step = 0; step < 40 && spy.counted.attempts < 2; step++) {
      await clock.advance(50);
      await realTime();
    }
    expect(spy.counted.attempts).toBe(2);

    caller.abort();
    for (let i = 0; i < 200 && settled[0] === null; i++) await realTime();
    expect(settled[0]).toBe('error AbortError');
    // The refusal's body comes now (on its connection, if that is still open); /b is answered.
    release();
    for (let i = 0; i < 200 && settled[1] === null; i++) await realTime();
    expect(settled[1]).toBe('200 ok');

    expect({ seen, connections: state.connections }).toEqual({ seen: ['/a', '/b'], connections: 1 });
  });
});
