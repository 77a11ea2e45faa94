/**
 * An answer that is retried is kept until its retry leaves (the call's to return if the retry never
 * can), and the retry of a 503 with `Retry-After: 30` waits 30 s at the key's gate. The interceptor
 * holds that answer's chunks meanwhile; its own comment says they are "as few as one read of the
 * socket". A large (or endless) error body must not be read whole into memory during the wait: the
 * held attempt is paused (or given up), as `createFetch` leaves an unread `Response` to undici's
 * backpressure. Real undici 8 and a `node:http` server on 127.0.0.1; the wait is on a manual clock,
 * so it never ends during the test.
 */
import { once } from 'node:events';
import type { Dispatcher } from 'undici';
import { Agent, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { headwayInterceptor } from '../../src/undici/index.js';
import { runUntilSettled } from '../client/fake-server.js';
import { listen } from '../server/loopback.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const MIB = 1 << 20;
const SIZE = 32 * MIB;

/**
 * Sits below Headway and reports when the attempt stops being read: Headway pauses or aborts its
 * controller, or the attempt fails.
 */
function watchReads(stopped: (how: string) => void, counted: (bytes: number) => void) {
  return (dispatch: Dispatcher.Dispatch): Dispatcher.Dispatch =>
    (opts, handler) =>
      dispatch(opts, {
        onRequestStart: (controller, context) => {
          const watched = {
            get aborted() {
              return controller.aborted;
            },
            get paused() {
              return controller.paused;
            },
            get reason() {
              return controller.reason;
            },
            get rawHeaders() {
              return (controller as { rawHeaders?: unknown }).rawHeaders;
            },
            get rawTrailers() {
              return (controller as { rawTrailers?: unknown }).rawTrailers;
            },
            pause() {
              stopped('paused');
              controller.pause();
            },
            resume() {
              controller.resume();
            },
            abort(reason: Error) {
              stopped('aborted');
              controller.abort(reason);
            },
          };
          handler.onRequestStart?.(watched as Dispatcher.DispatchController, context);
        },
        onResponseStart: (c, status, headers, message) =>
          handler.onResponseStart?.(c, status, headers, message),
        onResponseData: (c, chunk) => {
          counted(chunk.length);
          handler.onResponseData?.(c, chunk);
        },
        onResponseEnd: (c, trailers) => handler.onResponseEnd?.(c, trailers),
        onResponseError: (c, error) => {
          stopped('failed');
          handler.onResponseError?.(c, error);
        },
      });
}

describe('headwayInterceptor: the body of an answer held while its retry waits', () => {
  it('a 32 MiB 503 body is not read whole into memory during its Retry-After wait', async () => {
    let wroteAll: () => void = () => {};
    const written = new Promise<string>((resolve) => (wroteAll = () => resolve('the server wrote it all')));
    let n = 0;
    const server = await listen(async (_req, res) => {
      if (n++ > 0) {
        res.end('ok');
        return;
      }
      res.writeHead(503, { 'retry-after': '30', 'content-length': String(SIZE) });
      const chunk = Buffer.alloc(MIB, 120);
      for (let i = 0; i < SIZE / MIB; i++) if (!res.write(chunk)) await once(res, 'drain');
      res.end(wroteAll);
    });
    cleanups.push(server.close);
    const clock = new ManualClock(0, Date.UTC(2026, 10, 30));
    const agent = new Agent();
    cleanups.push(() => agent.close());
    let stop: (how: string) => void = () => {};
    const stopped = new Promise<string>((resolve) => (stop = resolve));
    let received = 0;
    const interceptor = headwayInterceptor({ clock, random: () => 0 });
    const limited: number[] = [];
    interceptor.onRateLimited((e) => limited.push(e.status));
    const dispatcher = agent.compose(
      watchReads(stop, (bytes) => (received += bytes)),
      interceptor,
    );
    const call = request(`${server.url}/big`, { dispatcher }).catch((error: unknown) => error);
    // Afterwards the wait is run out, so the retry goes and the call ends.
    cleanups.push(() => runUntilSettled(clock, [call], 1000, 60_000));
    const outcome = await Promise.race([written, stopped]);
    expect(limited).toEqual([503]);
    // waited at the gate; the held attempt was never paused.
    expect(outcome).not.toBe('the server wrote it all');
    expect(received).toBeLessThan(SIZE);
  });
});
