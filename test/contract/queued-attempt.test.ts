/**
 * An interceptor attempt still waiting for a connection (its pool's only connection is busy)
 * honours `timeoutMs`, `deadlineMs` and the caller's abort at once: undici calls `onRequestStart`
 * only once a request has a connection, so the attempt's signal is listened to from the start.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { DeadlineExceededError, TimeoutError } from '../../src/errors.js';
import { headwayInterceptor } from '../../src/undici/index.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A server that never answers; `arrivals` resolves as requests arrive. */
async function silent() {
  const server = createServer(() => {});
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  cleanups.push(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function queuedBehindBusyConnection(options: { timeoutMs?: number; deadlineMs?: number }) {
  const clock = new ManualClock(0, Date.UTC(2026, 10, 30));
  const { server, url } = await silent();
  // One connection per origin: a second request waits in undici's queue for the first to end.
  const agent = new Agent({ connections: 1 });
  cleanups.push(() => agent.destroy());
  const dispatcher = agent.compose(headwayInterceptor({ clock, random: () => 0, retries: 0, ...options }));
  // The first request holds the only connection (sent through the agent itself: not paced, no timeout).
  const arrived = once(server, 'request') as Promise<[IncomingMessage]>;
  request(`${url}/busy`, { dispatcher: agent }).catch(() => {});
  await arrived;
  let outcome: unknown = 'pending';
  // Settles when the agent is destroyed at the end, whatever this test observed.
  void request(`${url}/queued`, { dispatcher }).then(
    (r) => (outcome = r.statusCode),
    (e: unknown) => (outcome = e),
  );
  // Well past the attempt's timeout / the call's deadline, on Headway's clock.
  for (let i = 0; i < 10; i++) await clock.advance(100);
  await new Promise((resolve) => setTimeout(resolve, 50)); // let any abort reach the handler
  return outcome;
}

describe('headwayInterceptor: an attempt queued for a connection', () => {
  it('times out after timeoutMs, as TimeoutError, while it waits for a connection', async () => {
    const outcome = await queuedBehindBusyConnection({ timeoutMs: 500 });
    expect(outcome).toBeInstanceOf(TimeoutError);
  });

  it('ends at deadlineMs, as DeadlineExceededError, while it waits for a connection', async () => {
    const outcome = await queuedBehindBusyConnection({ deadlineMs: 500 });
    expect(outcome).toBeInstanceOf(DeadlineExceededError);
  });
});

describe('headwayInterceptor: a raw dispatch queued for a connection', () => {
  it("the caller's controller.abort() ends it at once with the caller's reason", async () => {
    const clock = new ManualClock(0, Date.UTC(2026, 10, 30));
    const { server, url } = await silent();
    const agent = new Agent({ connections: 1 });
    cleanups.push(() => agent.destroy());
    const dispatcher = agent.compose(headwayInterceptor({ clock, random: () => 0, retries: 0 }));
    const arrived = once(server, 'request');
    request(`${url}/busy`, { dispatcher: agent }).catch(() => {});
    await arrived;
    const events: string[] = [];
    let controller: { abort(reason: Error): void } | null = null;
    dispatcher.dispatch(
      { origin: url, path: '/queued', method: 'GET' },
      {
        // The interceptor hands its controller over at once, so that the caller can abort while the call waits.
        onRequestStart: (c) => {
          controller = c;
          events.push('start');
        },
        onResponseStart: (_c, status) => void events.push(`head ${status}`),
        onResponseError: (_c, error) => void events.push(`error ${error.message}`),
      },
    );
    expect(events).toEqual(['start']);
    (controller as unknown as { abort(reason: Error): void }).abort(new Error('caller gave up'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(events).toEqual(['start', 'error caller gave up']);
  });
});
