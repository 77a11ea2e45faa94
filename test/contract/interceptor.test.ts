/**
 * The interceptor face against a scripted `node:http` server on loopback: bodies replayed only
 * when they can be, an answer's body delivered whole (a first attempt's decided on its head, a
 * retry's after the engine held it), a dropped connection retried, the caller's abort honoured
 * during a pacing wait, and `installGlobal` undone exactly. Waits run on a manual clock.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { Readable } from 'node:stream';
import { Agent, getGlobalDispatcher, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { TimeoutError } from '../../src/errors.js';
import { headwayInterceptor, installGlobal } from '../../src/undici/index.js';
import { runUntilSettled } from '../client/fake-server.js';

interface Seen {
  method: string;
  body: string;
}

/** A server that answers the n-th request (0-based) with `script(n)`, and records what it saw. */
async function scripted(
  script: (n: number) => { status: number; headers?: Record<string, string>; body?: string } | 'reset',
) {
  const seen: Seen[] = [];
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const n = seen.push({ method: req.method ?? '', body: Buffer.concat(chunks).toString() }) - 1;
    const answer = script(n);
    // `reset`: the connection drops with no answer at all.
    if (answer === 'reset') req.socket.destroy();
    else res.writeHead(answer.status, answer.headers).end(answer.body ?? '');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function paced(clock: ManualClock) {
  const interceptor = headwayInterceptor({ clock, random: () => 0 });
  const agent = new Agent();
  cleanups.push(() => agent.close());
  return { interceptor, dispatcher: agent.compose(interceptor) };
}

const refuseFirst = (n: number) =>
  n === 0 ? { status: 429, headers: { 'retry-after': '1' }, body: 'slow down' } : { status: 200, body: 'ok' };

describe('headwayInterceptor', () => {
  it('retries a string body after Retry-After, sending the same body again', async () => {
    const clock = new ManualClock(0, Date.UTC(2026, 10, 30));
    const server = await scripted(refuseFirst);
    cleanups.push(server.close);
    const { dispatcher } = paced(clock);
    const [result] = await runUntilSettled(
      clock,
      [
        request(`${server.url}/post`, { dispatcher, method: 'POST', body: 'payload' }).then(async (r) => ({
          status: r.statusCode,
          text: await r.body.text(),
        })),
      ],
      100,
    );
    expect(result).toEqual({ status: 'fulfilled', value: { status: 200, text: 'ok' } });
    expect(server.seen).toEqual([
      { method: 'POST', body: 'payload' },
      { method: 'POST', body: 'payload' },
    ]);
  });

  it('sends a stream body once: the 429 is the answer, and the reason is given', async () => {
    const clock = new ManualClock(0, Date.UTC(2026, 10, 30));
    const server = await scripted(refuseFirst);
    cleanups.push(server.close);
    const { dispatcher, interceptor } = paced(clock);
    const reasons: string[] = [];
    interceptor.onGiveUp((e) => reasons.push(e.reason));
    const response = await request(`${server.url}/post`, {
      dispatcher,
      method: 'POST',
      body: Readable.from(['pay', 'load']),
    });
    expect(response.statusCode).toBe(429);
    expect(await response.body.text()).toBe('slow down');
    expect(server.seen).toEqual([{ method: 'POST', body: 'payload' }]);
    expect(reasons).toEqual(['body-not-replayable']);
  });

  it('delivers a body of many chunks whole, decided on its head', async () => {
    const clock = new ManualClock(0, Date.UTC(2026, 10, 30));
    const big = 'x'.repeat(1 << 20);
    const server = await scripted(() => ({ status: 200, body: big }));
    cleanups.push(server.close);
    const { dispatcher } = paced(clock);
    const response = await request(`${server.url}/big`, { dispatcher });
    expect((await response.body.text()).length).toBe(big.length);
  });

  it("delivers a retry's body of many chunks whole, after holding its head", async () => {
    const clock = new ManualClock(0, Date.UTC(2026, 10, 30));
    const big = 'y'.repeat(1 << 20);
    const server = await scripted((n) => (n === 0 ? refuseFirst(0) : { status: 200, body: big }));
    cleanups.push(server.close);
    const { dispatcher } = paced(clock);
    const [result] = await runUntilSettled(
      clock,
      [request(`${server.url}/big`, { dispatcher }).then(async (r) => (await r.body.text()).length)],
      100,
    );
    expect(result).toEqual({ status: 'fulfilled', value: big.length });
    expect(server.seen).toHaveLength(2);
  });

  it('retries a first attempt that got no answer (the connection dropped), and delivers the retry', async () => {
    const clock = new ManualClock(0, Date.UTC(2026, 10, 30));
    const server = await scripted((n) => (n === 0 ? 'reset' : { status: 200, body: 'ok' }));
    cleanups.push(server.close);
    const { dispatcher, interceptor } = paced(clock);
    const retries: Array<number | null> = [];
    interceptor.onRetry((e) => retries.push(e.status));
    const [result] = await runUntilSettled(
      clock,
      [request(`${server.url}/get`, { dispatcher }).then(async (r) => [r.statusCode, await r.body.text()])],
      100,
    );
    expect(result).toEqual({ status: 'fulfilled', value: [200, 'ok'] });
    expect(server.seen).toHaveLength(2);
    expect(retries).toEqual([null]);
  });

  it("the caller's abort ends a call waiting at a closed gate, and it is never sent", async () => {
    const clock = new ManualClock(0, Date.UTC(2026, 10, 30));
    const server = await scripted((n) =>
      n === 0 ? { status: 429, headers: { 'retry-after': '30' } } : { status: 200 },
    );
    cleanups.push(server.close);
    const { dispatcher, interceptor } = paced(clock);
    const limited: number[] = [];
    interceptor.onRateLimited((e) => limited.push(e.retryAfterMs ?? -1));
    const first = request(`${server.url}/a`, { dispatcher }).then((r) => r.body.dump());
    while (limited.length === 0) await clock.advance(0);
    const controller = new AbortController();
    const waiting = request(`${server.url}/b`, { dispatcher, signal: controller.signal });
    const settled = waiting.then(
      () => 'sent',
      (error: unknown) => error,
    );
    await clock.advance(1000);
    const reason = new Error('caller gave up');
    controller.abort(reason);
    expect(await settled).toBe(reason);
    expect(server.seen).toHaveLength(1);
    await runUntilSettled(clock, [first], 1000);
  });

  it('a timed-out attempt is aborted and settles as TimeoutError', async () => {
    const clock = new ManualClock(0, Date.UTC(2026, 10, 30));
    const server = createServer(() => {}); // never answers
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    cleanups.push(() => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    });
    const agent = new Agent();
    cleanups.push(() => agent.close());
    const dispatcher = agent.compose(
      headwayInterceptor({ clock, random: () => 0, timeoutMs: 500, retries: 0 }),
    );
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slow`;
    const arrived = once(server, 'request');
    const settled = request(url, { dispatcher }).then(
      () => 'answered',
      (error: unknown) => error,
    );
    await arrived;
    await clock.advance(500);
    expect(await settled).toBeInstanceOf(TimeoutError);
  });

  it('reads a lower-case method as its capital form: a `get` answered 503 is retried, a `post` is not', async () => {
    // Node's HTTP server refuses lower-case methods before a handler sees them, so this server
    // reads the raw request line itself and answers each connection once.
    const lines: string[] = [];
    const server = createNetServer((socket) => {
      socket.once('data', (chunk: Buffer) => {
        const n = lines.push(chunk.toString('latin1').split('\r\n', 1)[0] ?? '') - 1;
        const status = n % 2 === 0 ? '503 Service Unavailable' : '200 OK';
        socket.end(`HTTP/1.1 ${status}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n`);
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const clock = new ManualClock(0, Date.UTC(2026, 10, 30));
    const { dispatcher } = paced(clock);
    const status = (method: string) =>
      request(`${url}/${method}`, { dispatcher, method }).then(async (r) => {
        await r.body.dump();
        return r.statusCode;
      });
    expect(await runUntilSettled(clock, [status('get')], 100)).toEqual([{ status: 'fulfilled', value: 200 }]);
    expect(lines).toEqual(['get /get HTTP/1.1', 'get /get HTTP/1.1']);
    expect(await runUntilSettled(clock, [status('post')], 100)).toEqual([
      { status: 'fulfilled', value: 503 },
    ]);
    expect(lines.slice(2)).toEqual(['post /post HTTP/1.1']);
  });

  it('refuses a `fetch` option, which an interceptor cannot use', () => {
    expect(() => headwayInterceptor({ fetch: globalThis.fetch } as never)).toThrow(/`fetch`/);
  });
});

describe('installGlobal', () => {
  it("paces the built-in fetch (a POST's body is sent once: fetch streams it) and undoes itself exactly", async () => {
    const slot1 = Symbol.for('undici.globalDispatcher.1');
    const slots = globalThis as unknown as Record<symbol, unknown>;
    const before = { v2: getGlobalDispatcher(), v1: slots[slot1] };
    const clock = new ManualClock(0, Date.UTC(2026, 10, 30));
    const server = await scripted(refuseFirst);
    cleanups.push(server.close);
    const uninstall = installGlobal({ clock, random: () => 0 });
    cleanups.push(uninstall);
    expect(getGlobalDispatcher()).not.toBe(before.v2);

    const reasons: string[] = [];
    uninstall.onGiveUp((e) => reasons.push(e.reason));
    const post = await globalThis.fetch(`${server.url}/post`, { method: 'POST', body: 'payload' });
    expect(post.status).toBe(429);
    await post.arrayBuffer();
    expect(reasons).toEqual(['body-not-replayable']);

    const [get] = await runUntilSettled(
      clock,
      [globalThis.fetch(`${server.url}/get`).then((r) => r.status)],
      100,
    );
    expect(get).toEqual({ status: 'fulfilled', value: 200 });
    // A length the caller set itself: Node 22's fetch sends it as "7, 7", which undici 8 alone rejects (undici#5500).
    const [sized] = await runUntilSettled(
      clock,
      [
        globalThis
          .fetch(`${server.url}/sized`, {
            method: 'POST',
            body: 'payload',
            headers: { 'content-length': '7' },
          })
          .then(async (r) => [r.status, await r.text()]),
      ],
      100,
    );
    expect(sized).toEqual({ status: 'fulfilled', value: [200, 'ok'] });
    expect(server.seen).toEqual([
      { method: 'POST', body: 'payload' },
      { method: 'GET', body: '' },
      { method: 'POST', body: 'payload' },
    ]);
    expect(uninstall.stats()[0]).toMatchObject({ key: server.url, sent: 3, rateLimited: 1 });

    uninstall();
    expect(getGlobalDispatcher()).toBe(before.v2);
    expect(slots[slot1]).toBe(before.v1);
  });
});
