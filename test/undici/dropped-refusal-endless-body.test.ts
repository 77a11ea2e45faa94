/**
 * README, "Pace code you don't own" → "Backpressure holds": an answer kept for a retry is read to
 * its end while short, "a longer one is paused there, its rest not read into memory (a `Client`
 * whose one connection holds such an answer waits for the retry)"; and the TSDoc of `drop()`: "the
 * rest of its body is read and ignored (the connection stays usable)". `createFetch` cancels a
 * dropped answer's body (`cancelBody`), which frees its connection at once.
 *
 * A 429 (`Retry-After: 1`) whose body never ends (a refusal streamed by a proxy, an error page
 * trickled out): when its retry leaves, the interceptor drops it by reading the rest, for ever. On a
 * `Client` (one connection) the retry is queued behind that body and never sent: the call hangs for
 * good. On an `Agent` the call finishes on a new connection, but the refused answer's connection is
 * never released. The same server through `createFetch` (same `Client`) finishes at once.
 *
 * Found on 2026-12-06 (session 25, the sixth review round). Tried the same day and taken back:
 * aborting a dropped answer whose body had not ended by the time its retry left broke two things
 * that dropped-short-refusal-keeps-connection.test.ts and dropped-refusal-pipelined-call-sent-
 * twice.test.ts keep out (a short body that came after its head lost its keep-alive connection; on
 * a pipelined `Client` the abort made undici send another request twice).
 *
 * Fixed on 2026-12-06 (session 26): a dropped answer's body is read for 5 s at most (on the
 * engine's clock), or until its call has its answer while the body is still coming, then aborted:
 * the first and third tests need the 5 s (the retry waits behind the body on the one connection;
 * a call that fails aborts nothing), the second the call's answer.
 */
import { Agent, Client, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { headwayInterceptor } from '../../src/undici/index.js';
import { getText, refusalServer, runFor } from './refusal-server.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The first request is refused with a body that never ends; the others are answered `ok`. */
const endlessRefusal = (retryAfter = '1') => refusalServer(cleanups, { retryAfter, body: 'endless' });

describe('headwayInterceptor: a refusal whose body never ends, dropped for its retry', () => {
  it('on a Client (one connection) the retry is sent and the call finishes', async () => {
    const { url, seen } = await endlessRefusal();
    const clock = new ManualClock(0, Date.UTC(2026, 10, 30));
    const client = new Client(url);
    // `destroy`, not `close`: a close waits for the hung call.
    cleanups.push(() => client.destroy());
    const dispatcher = client.compose(headwayInterceptor({ clock, random: () => 0 }));

    const call = getText(`${url}/a`, dispatcher);
    await runFor(clock, () => call.text !== null);

    expect(call.text).toBe('200 ok');
    expect(seen).toEqual(['/a', '/a']);
  });

  it('on an Agent the refused answer’s connection is released once the call is answered', async () => {
    const { url, seen, refusal } = await endlessRefusal();
    const clock = new ManualClock(0, Date.UTC(2026, 10, 30));
    const agent = new Agent();
    cleanups.push(() => agent.destroy());
    const dispatcher = agent.compose(headwayInterceptor({ clock, random: () => 0 }));

    const call = getText(`${url}/a`, dispatcher);
    await runFor(clock, () => call.text !== null);
    expect(call.text).toBe('200 ok');
    expect(seen).toEqual(['/a', '/a']);
    // Real time for the release to reach the server (it is at once with `createFetch`).
    for (let i = 0; i < 100 && !refusal.closed; i++) await new Promise((resolve) => setTimeout(resolve, 10));

    expect(refusal.closed).toBe(true);
  });

  it('on a Client, a refusal failed fast (Retry-After beyond maxRetryAfterMs) frees the connection for the next call', async () => {
    const { url, seen } = await endlessRefusal('3600');
    const clock = new ManualClock(0, Date.UTC(2026, 10, 30));
    const client = new Client(url);
    cleanups.push(() => client.destroy());
    const dispatcher = client.compose(headwayInterceptor({ clock, random: () => 0 }));

    let first: string | null = null;
    request(`${url}/a`, { dispatcher }).then(
      (r) => (first = `${r.statusCode}`),
      (error: unknown) => (first = (error as { code?: string }).code ?? String(error)),
    );
    await runFor(clock, () => first !== null);
    expect(first).toBe('HEADWAY_RATE_LIMITED');
    // The next call on the same Client (straight to it: the server answers it at once).
    let second: string | null = null;
    request(`${url}/b`, { dispatcher: client }).then(
      async (r) => (second = `${r.statusCode} ${await r.body.text()}`),
      (error: unknown) => (second = `error ${String(error)}`),
    );
    await runFor(clock, () => second !== null);

    expect(second).toBe('200 ok');
    expect(seen).toEqual(['/a', '/b']);
  });
});
