/**
 * The server of the interceptor's dropped-answer tests, on 127.0.0.1: its first request is refused
 * (`429` with `Retry-After`), and every later one is answered `200 ok`. How the refusal's body
 * comes is the test's subject:
 * - `late`: `slow down` (9 bytes, `Content-Length` stated), sent only by {@link RefusalServer.release};
 * - `endless`: `slow down` then a byte every 5 ms, for ever;
 * - `with-head`: `{"error":"slow down"}`, written with its head.
 */
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Dispatcher, request } from 'undici';
import type { ManualClock } from '../../src/core/manual-clock.js';

export interface RefusalServer {
  url: string;
  /** The paths requested, in order. */
  seen: string[];
  /** Connections the server opened, and how many of them have closed. */
  state: { connections: number; closed: number };
  /** Whether the refusal's answer has closed. */
  refusal: { closed: boolean };
  /** Sends a `late` refusal's body (nothing once its answer is gone). */
  release(): void;
}

/** Starts the server; `cleanups` gets what stops it. */
export async function refusalServer(
  cleanups: Array<() => unknown>,
  options: { retryAfter: string; body: 'late' | 'endless' | 'with-head' },
): Promise<RefusalServer> {
  const seen: string[] = [];
  const state = { connections: 0, closed: 0 };
  const refusal = { closed: false };
  const timers: NodeJS.Timeout[] = [];
  let held: ServerResponse | null = null;
  const server = createServer((req, res) => {
    const n = seen.push(req.url ?? '') - 1;
    if (n > 0) {
      res.writeHead(200).end('ok');
      return;
    }
    res.on('close', () => (refusal.closed = true));
    const retryAfter = { 'retry-after': options.retryAfter };
    if (options.body === 'with-head') {
      res.writeHead(429, { ...retryAfter, 'content-type': 'application/json' });
      res.end('{"error":"slow down"}');
    } else if (options.body === 'endless') {
      res.writeHead(429, { ...retryAfter, 'content-type': 'text/plain' });
      res.write('slow down\n');
      timers.push(setInterval(() => res.write('.'), 5));
    } else {
      res.writeHead(429, { ...retryAfter, 'content-length': '9', 'content-type': 'text/plain' });
      res.flushHeaders();
      held = res;
    }
  });
  server.on('connection', (socket) => {
    state.connections++;
    socket.on('close', () => state.closed++);
    cleanups.push(() => socket.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  cleanups.push(() => {
    for (const timer of timers) clearInterval(timer);
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const release = () => {
    const res = held as ServerResponse | null;
    if (res && !res.destroyed) res.end('slow down');
  };
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, state, refusal, release };
}

/** Advances the manual clock 50 ms a step (200 steps at most) until `done()`, with real time for loopback I/O. */
export async function runFor(clock: ManualClock, done: () => boolean): Promise<void> {
  for (let step = 0; step < 200 && !done(); step++) {
    await clock.advance(50);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/**
 * An interceptor to compose inside Headway's (undici runs the last listed first), which sees each
 * attempt as it is dispatched: `counted.attempts` counts them, and `after(n)` runs once the n-th
 * has been dispatched.
 */
export function attemptSpy(after: (n: number) => void = () => {}): {
  interceptor: Dispatcher.DispatcherComposeInterceptor;
  counted: { attempts: number };
} {
  const counted = { attempts: 0 };
  const interceptor: Dispatcher.DispatcherComposeInterceptor = (dispatch) => (opts, handler) => {
    counted.attempts++;
    const sent = dispatch(opts, handler);
    after(counted.attempts);
    return sent;
  };
  return { interceptor, counted };
}

/**
 * GETs `url` through `dispatcher`, not awaited: `got.text` is `<status> <body>` (`200 ok`) once
 * the call settled, or `error <reason>` (`null` until then).
 */
export function getText(url: string, dispatcher: Dispatcher): { text: string | null } {
  const got: { text: string | null } = { text: null };
  request(url, { dispatcher }).then(
    async (r) => (got.text = `${r.statusCode} ${await r.body.text()}`),
    (error: unknown) => (got.text = `error ${String(error)}`),
  );
  return got;
}
