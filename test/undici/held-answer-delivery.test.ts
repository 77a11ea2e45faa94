/**
 * A retry's answer is held while the engine decides, then delivered to the caller's handler. The
 * caller's handler then gets what undici's core gives it, and what the interceptor gives it on a
 * first attempt: a caller that aborts from inside the delivery (in `onResponseStart`, as undici's
 * own `fetch` handler and interceptors do) gets `onResponseError` with its reason and nothing
 * after; a handler that pauses (`controller.pause()`, which undici's legacy wrapper also calls when
 * `onData` returns false) gets no data and no end until it resumes. Real undici 8 and a `node:http`
 * server on 127.0.0.1; waits on a manual clock.
 */
import type { Dispatcher } from 'undici';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { headwayInterceptor } from '../../src/undici/index.js';
import { runUntilSettled } from '../client/fake-server.js';
import { listen } from '../server/loopback.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Answers 429 `Retry-After: 1` first, then 200 `hello` (small: it arrives whole while held). */
async function serve(): Promise<string> {
  let n = 0;
  const server = await listen((_req, res) => {
    if (n++ === 0) res.writeHead(429, { 'retry-after': '1' }).end('slow down');
    else res.writeHead(200, { 'content-type': 'text/plain' }).end('hello');
  });
  cleanups.push(server.close);
  return server.url;
}

const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise<void>((resolve) => setImmediate(resolve));
};

describe("headwayInterceptor: the caller aborts while a retry's held answer is delivered", () => {
  it('an abort in onResponseStart ends the call with onResponseError, and no data or end follows', async () => {
    const url = await serve();
    const clock = new ManualClock(0, Date.UTC(2026, 10, 30));
    const agent = new Agent();
    cleanups.push(() => agent.close());
    const dispatcher = agent.compose(headwayInterceptor({ clock, random: () => 0 }));
    const events: string[] = [];
    const reason = new Error('caller gave up');
    const settled = new Promise<void>((resolve) => {
      const handler: Dispatcher.DispatchHandler = {
        onResponseStart: (controller, status) => {
          events.push(`head ${status}`);
          controller.abort(reason);
        },
        onResponseData: (_c, chunk) => void events.push(`data ${chunk.toString()}`),
        onResponseEnd: () => {
          events.push('end');
          resolve();
        },
        onResponseError: (_c, error) => {
          events.push(`error ${error.message}`);
          resolve();
        },
      };
      dispatcher.dispatch({ origin: url, path: '/', method: 'GET' }, handler);
    });
    await runUntilSettled(clock, [settled], 100, 10_000);
    // the caller's own abort, and it never gets onResponseError.
    expect(events).toEqual(['head 200', 'error caller gave up']);
  });

  it("undici's fetch, whose handler aborts a response with too many content-encodings, fails with that reason", async () => {
    let n = 0;
    const server = await listen((_req, res) => {
      if (n++ === 0) res.writeHead(429, { 'retry-after': '1' }).end('slow down');
      else res.writeHead(200, { 'content-encoding': 'gzip, gzip, gzip, gzip, gzip, gzip' }).end('hello');
    });
    cleanups.push(server.close);
    const clock = new ManualClock(0, Date.UTC(2026, 10, 30));
    const agent = new Agent();
    cleanups.push(() => agent.close());
    const dispatcher = agent.compose(headwayInterceptor({ clock, random: () => 0 }));
    const cause = undiciFetch(`${server.url}/`, { dispatcher }).then(
      () => 'resolved',
      (error: { cause?: { message?: string } }) => error.cause?.message,
    );
    const [result] = await runUntilSettled(clock, [cause], 100, 10_000);
    // onResponseStart and created no body, then got the held chunk anyway and threw.
    expect(result).toEqual({
      status: 'fulfilled',
      value: expect.stringMatching(/too many content-encodings/),
    });
  });
});

describe("headwayInterceptor: the caller pauses while a retry's held answer is delivered", () => {
  it('a pause in onResponseStart holds the body and the end until resume', async () => {
    const url = await serve();
    const clock = new ManualClock(0, Date.UTC(2026, 10, 30));
    const agent = new Agent();
    cleanups.push(() => agent.close());
    const dispatcher = agent.compose(headwayInterceptor({ clock, random: () => 0 }));
    const events: string[] = [];
    let controller: Dispatcher.DispatchController | null = null;
    let headIn: () => void = () => {};
    const head = new Promise<void>((resolve) => (headIn = resolve));
    const settled = new Promise<void>((resolve) => {
      const handler: Dispatcher.DispatchHandler = {
        onResponseStart: (c, status) => {
          controller = c;
          events.push(`head ${status}`);
          if (status === 200) {
            c.pause();
            headIn();
          }
        },
        onResponseData: (c, chunk) =>
          void events.push(`data ${chunk.toString()}${c.paused ? ' (paused)' : ''}`),
        onResponseEnd: (c) => {
          events.push(`end${c.paused ? ' (paused)' : ''}`);
          resolve();
        },
        onResponseError: (_c, error) => {
          events.push(`error ${error.message}`);
          resolve();
        },
      };
      dispatcher.dispatch({ origin: url, path: '/', method: 'GET' }, handler);
    });
    await runUntilSettled(clock, [head], 100, 10_000);
    await turns(5);
    // delivered to a handler that paused.
    expect(events).toEqual(['head 200']);
    (controller as Dispatcher.DispatchController | null)?.resume();
    await settled;
    expect(events).toEqual(['head 200', 'data hello', 'end']);
  });
});
