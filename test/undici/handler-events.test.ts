/**
 * The caller's undici handler sees a coherent event sequence through the
 * interceptor. The next dispatcher here is scripted: each dispatch is one attempt, answered by
 * the test, with a controller that behaves as undici's (an abort after the end does nothing; an
 * abort before it ends the attempt with `onResponseError`).
 */
import type { Dispatcher } from 'undici';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { headwayInterceptor } from '../../src/undici/interceptor.js';

type Handler = Dispatcher.DispatchHandler;
type Controller = Dispatcher.DispatchController;

interface Head {
  status: number;
  headers?: Record<string, string>;
  chunks?: string[];
  end?: boolean;
}

/** A next dispatcher that answers attempt n (0-based) with `script(n)`, synchronously in `dispatch`. */
function scripted(script: (n: number) => Head, after?: (n: number) => void) {
  const attempts: Array<{ controller: Controller & { done: boolean } }> = [];
  const dispatch: Dispatcher.Dispatch = (_opts, handler: Handler) => {
    const controller = {
      done: false,
      aborted: false,
      paused: false,
      reason: null as Error | null,
      abort(reason: Error) {
        if (controller.done || controller.aborted) return;
        controller.aborted = true;
        controller.reason = reason;
        controller.done = true;
        handler.onResponseError?.(controller as unknown as Controller, reason);
      },
      pause() {
        controller.paused = true;
      },
      resume() {
        controller.paused = false;
      },
    };
    const c = controller as unknown as Controller & { done: boolean };
    attempts.push({ controller: c });
    const answer = script(attempts.length - 1);
    handler.onRequestStart?.(c, {});
    if (controller.done) return true;
    handler.onResponseStart?.(c, answer.status, answer.headers ?? {}, '');
    for (const chunk of answer.chunks ?? [])
      if (!controller.done) handler.onResponseData?.(c, Buffer.from(chunk));
    if (answer.end !== false && !controller.done) {
      controller.done = true;
      handler.onResponseEnd?.(c, {});
    }
    after?.(attempts.length - 1);
    return true;
  };
  return { dispatch, attempts };
}

/** A caller's handler that records its events; `throwOn` makes one of them throw. */
function recorder(throwOn?: 'onResponseStart' | 'onResponseData' | 'onResponseEnd') {
  const events: string[] = [];
  const caller: { controller: Controller | null } = { controller: null };
  const boom = new Error('handler threw');
  const maybeThrow = (name: string) => {
    if (name === throwOn) throw boom;
  };
  const handler: Handler = {
    onRequestStart: (controller) => {
      caller.controller = controller;
      events.push('start');
    },
    onResponseStart: (_c, status) => {
      events.push(`head ${status}`);
      maybeThrow('onResponseStart');
    },
    onResponseData: (_c, chunk) => {
      events.push(`data ${chunk.toString()}`);
      maybeThrow('onResponseData');
    },
    onResponseEnd: () => {
      events.push('end');
      maybeThrow('onResponseEnd');
    },
    onResponseError: (_c, error) => void events.push(`error ${error.message}`),
  };
  return { handler, events, boom, caller };
}

/** Moves the manual clock on in steps (past the retry's wait), letting callbacks run between them. */
async function drain(clock: ManualClock) {
  for (let i = 0; i < 30; i++) await clock.advance(100);
}

describe('headwayInterceptor: a handler that throws', () => {
  it("first attempt: a throw in onResponseStart ends the response with onResponseError (as undici's core does)", async () => {
    const clock = new ManualClock();
    const next = scripted(() => ({ status: 200, chunks: ['a'], end: false }));
    const dispatch = headwayInterceptor({ clock, random: () => 0 })(next.dispatch);
    const { handler, events } = recorder('onResponseStart');
    dispatch({ origin: 'http://a.test', path: '/', method: 'GET' }, handler);
    await drain(clock);
    expect(events).toEqual(['start', 'head 200', 'error handler threw']);
  });

  it("a retry's answer, held whole while the engine decided: a throw in onResponseStart still ends the call with onResponseError", async () => {
    const clock = new ManualClock();
    // 429 with Retry-After: 1 (retried after 1 s), then a 200 whose body and end arrive with its head.
    const next = scripted((n) =>
      n === 0
        ? { status: 429, headers: { 'retry-after': '1' }, chunks: ['slow down'] }
        : { status: 200, chunks: ['ok'] },
    );
    const dispatch = headwayInterceptor({ clock, random: () => 0 })(next.dispatch);
    const { handler, events } = recorder('onResponseStart');
    dispatch({ origin: 'http://a.test', path: '/', method: 'GET' }, handler);
    await drain(clock);
    expect(next.attempts).toHaveLength(2);
    expect(events).toEqual(['start', 'head 200', 'error handler threw']);
  });

  it("a retry's answer, held whole: a throw in onResponseData still ends the call with onResponseError", async () => {
    const clock = new ManualClock();
    const next = scripted((n) =>
      n === 0 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 200, chunks: ['ok'] },
    );
    const dispatch = headwayInterceptor({ clock, random: () => 0 })(next.dispatch);
    const { handler, events } = recorder('onResponseData');
    dispatch({ origin: 'http://a.test', path: '/', method: 'GET' }, handler);
    await drain(clock);
    expect(next.attempts).toHaveLength(2);
    expect(events).toEqual(['start', 'head 200', 'data ok', 'error handler threw']);
  });
});

describe("headwayInterceptor: an abort while a retry's answer is held", () => {
  it("the caller's abort, made after the retry's answer arrived but before the engine returned it, is reported and the answer is not delivered", async () => {
    const clock = new ManualClock();
    const { handler, events, caller } = recorder();
    const reason = new Error('caller gave up');
    const next = scripted(
      (n) => (n === 0 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 200, chunks: ['ok'] }),
      // Right after the retry's whole answer arrived (the engine decides in a later microtask).
      (n) => {
        if (n === 1) caller.controller?.abort(reason);
      },
    );
    const dispatch = headwayInterceptor({ clock, random: () => 0 })(next.dispatch);
    dispatch({ origin: 'http://a.test', path: '/', method: 'GET' }, handler);
    await drain(clock);
    expect(next.attempts).toHaveLength(2);
    expect(caller.controller?.aborted).toBe(true);
    expect(events).toEqual(['start', 'error caller gave up']);
  });
});
