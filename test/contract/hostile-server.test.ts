/**
 * Servers that misbehave on the wire, over real HTTP on 127.0.0.1: every call settles with a
 * Response or a documented error within its timeouts, and nothing leaks a socket.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createFetch } from '../../src/client/create-fetch.js';
import { TimeoutError } from '../../src/errors.js';

let server: Server | undefined;
const open = new Set<import('node:net').Socket>();

async function serve(
  handler: (req: IncomingMessage, res: ServerResponse, n: number) => void,
): Promise<string> {
  let n = 0;
  server = createServer((req, res) => handler(req, res, n++));
  server.on('connection', (socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

afterEach(async () => {
  for (const socket of open) socket.destroy();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

describe('hostile servers over HTTP', () => {
  it('a server that never answers: TimeoutError after timeoutMs, each retry too', async () => {
    let seen = 0;
    const url = await serve(() => {
      seen++;
    });
    const fetch = createFetch({ timeoutMs: 200, retries: 1 });
    const started = performance.now();
    await expect(fetch(url)).rejects.toBeInstanceOf(TimeoutError);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(seen).toBe(2); // the first attempt and one retry (a GET is safe to repeat)
  });

  it('a status line dripped a byte a second: TimeoutError', async () => {
    const url = await serve((req) => {
      const socket = req.socket;
      const line = 'HTTP/1.1 200 OK\r\n';
      let i = 0;
      const drip = setInterval(() => {
        if (socket.destroyed || i >= line.length) return clearInterval(drip);
        socket.write(line[i++]!);
      }, 1_000);
      socket.once('close', () => clearInterval(drip));
    });
    const fetch = createFetch({ timeoutMs: 300, retries: 0 });
    await expect(fetch(url)).rejects.toBeInstanceOf(TimeoutError);
  });

  it.each([
    ['with timeoutMs', { timeoutMs: 500 }],
    ['with a deadline', { deadlineMs: 5_000 }],
    ['with neither', {}],
  ])(
    'a body that never finishes (%s): the Response comes with the headers; the caller can abort the body',
    async (_, options) => {
      const url = await serve((_, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('partial');
      });
      const controller = new AbortController();
      const fetch = createFetch(options);
      const response = await fetch(url, { signal: controller.signal });
      expect(response.status).toBe(200);
      const reader = response.body!.getReader();
      expect(new TextDecoder().decode((await reader.read()).value)).toBe('partial');
      controller.abort();
      await expect(reader.read()).rejects.toBeDefined();
    },
  );

  it('a connection reset mid-response: a GET is retried and the call succeeds', async () => {
    const url = await serve((req, res, n) => {
      if (n === 0) {
        req.socket.write('HTTP/1.1 200 OK\r\ncontent-len');
        req.socket.destroy();
        return;
      }
      res.end('ok');
    });
    const fetch = createFetch({ timeoutMs: 2_000 });
    const response = await fetch(url);
    expect(await response.text()).toBe('ok');
  });

  it('a connection reset on a POST is not retried: the network error is the answer', async () => {
    let seen = 0;
    const url = await serve((req) => {
      seen++;
      req.socket.destroy();
    });
    const fetch = createFetch({ timeoutMs: 2_000 });
    await expect(fetch(url, { method: 'POST', body: 'x' })).rejects.toBeDefined();
    expect(seen).toBe(1);
  });

  it('a 429 whose body never ends: the client does not wait for it, honours Retry-After, and succeeds', async () => {
    const url = await serve((_, res, n) => {
      if (n === 0) {
        res.writeHead(429, { 'retry-after': '1', 'content-type': 'text/plain' });
        res.write('slow down'); // and never end
        return;
      }
      res.end('ok');
    });
    const fetch = createFetch({ timeoutMs: 2_000 });
    const started = performance.now();
    const response = await fetch(url);
    expect(await response.text()).toBe('ok');
    expect(performance.now() - started).toBeGreaterThanOrEqual(900); // Retry-After honoured
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});
