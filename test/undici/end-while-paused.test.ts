/**
 * README, "Pace code you don't own": "Backpressure holds … its `pause()` holds the rest … as
 * undici's core does." undici's core may end a response while its handler is paused: when the peer
 * closes the connection, `client-h1.js` (`Parser#finish`) resumes the parser across the pause and
 * delivers the rest of the body and `onResponseEnd` ("Backpressure is advisory here"). Through
 * the interceptor, an end that arrives while the caller is paused must reach the caller once it
 * resumes; an answer delivered at its head (a first attempt) holds it back for good instead, and
 * the caller's body never ends.
 */
import type { Socket } from 'node:net';
import type { Dispatcher } from 'undici';
import { Agent, buildConnector, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { headwayInterceptor } from '../../src/undici/interceptor.js';
import { listen } from '../server/loopback.js';

type Controller = Dispatcher.DispatchController;

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('headwayInterceptor: an answer that ends while the caller is paused', () => {
  it('scripted next dispatcher: the end reaches the caller when it resumes', async () => {
    const clock = new ManualClock();
    // Answers at once: a head, one chunk, then the end (the peer closed), whatever the pause.
    const next: Dispatcher.Dispatch = (_opts, handler) => {
      const state = {
        aborted: false,
        paused: false,
        reason: null,
        abort() {},
        pause() {
          state.paused = true;
        },
        resume() {
          state.paused = false;
        },
      };
      const controller = state as unknown as Controller;
      handler.onRequestStart?.(controller, {});
      handler.onResponseStart?.(controller, 200, {}, 'OK');
      handler.onResponseData?.(controller, Buffer.from('body'));
      handler.onResponseEnd?.(controller, {});
      return true;
    };
    const events: string[] = [];
    let caller: Controller | null = null;
    const dispatch = headwayInterceptor({ clock, random: () => 0 })(next);
    dispatch(
      { origin: 'http://a.test', path: '/', method: 'GET' },
      {
        onRequestStart: (controller) => {
          caller = controller;
        },
        onResponseStart: (_c, status) => void events.push(`head ${status}`),
        onResponseData: (c, chunk) => {
          events.push(`data ${chunk.toString()}`);
          c.pause(); // the caller's buffer is full
        },
        onResponseEnd: () => void events.push('end'),
        onResponseError: (_c, error) => void events.push(`error ${error.message}`),
      },
    );
    for (let i = 0; i < 5; i++) await clock.advance(0);
    expect(events).toEqual(['head 200', 'data body']);

    (caller as Controller | null)?.resume();
    for (let i = 0; i < 5; i++) await clock.advance(0);
    expect(events).toEqual(['head 200', 'data body', 'end']);
  });

  it('undici.request over a connection the server closes: the body ends (as without Headway)', async () => {
    const body = 'z'.repeat(4096);
    const server = await listen((_req, res) => {
      res.writeHead(200, { connection: 'close', 'content-length': String(body.length) }).end(body);
    });
    cleanups.push(server.close);
    const closed: Array<Promise<void>> = [];
    const connect = buildConnector({});
    const agent = new Agent({
      connect: (opts, callback) =>
        connect(opts, (error, socket) => {
          if (socket)
            closed.push(new Promise((resolve) => (socket as Socket).once('close', () => resolve())));
          callback(error as never, socket as never);
        }),
    });
    cleanups.push(() => agent.close());
    const dispatcher = agent.compose(headwayInterceptor());

    // highWaterMark 1: the body stream pauses at its first chunk.
    const response = await request(`${server.url}/item`, { dispatcher, highWaterMark: 1 });
    await closed[0]; // undici has read the whole answer and its end (the peer's close)
    expect(await response.body.text()).toBe(body);
  });
});
