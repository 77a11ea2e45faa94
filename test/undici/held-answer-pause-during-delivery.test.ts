/**
 * A retry's answer is held while the engine decides, then delivered to the caller's handler. A
 * handler that pauses (`controller.pause()`, which undici's legacy wrapper also calls when `onData`
 * returns false) must get no data and no end until it resumes, as with undici's core and with the
 * interceptor's first attempts. Real undici 8 and a `node:http` server on 127.0.0.1; waits on a
 * manual clock.
 */
import type { Dispatcher } from 'undici';
import { Agent } from 'undici';
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
