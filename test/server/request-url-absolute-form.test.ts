import { connect } from 'node:net';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { expressRateLimit } from '../../src/server/adapters/express.js';
import { nodeRateLimit } from '../../src/server/adapters/node.js';
import { rateLimit } from '../../src/server/rate-limit.js';
import type { LimitRequest } from '../../src/server/request.js';
import { listen } from './loopback.js';

/**
 * RFC 9112 §3.2.2: "a server MUST accept the absolute-form in requests" (`GET http://host/p HTTP/1.1`),
 * and Node then gives it as `req.url` as is. README (Options, `key`): "`request.url` is absolute in
 * every adapter" — the request's URL, as a Web `Request`'s (and as `@hono/node-server` gives it for
 * the same request line). The node and Express adapters put the scheme and `Host` in front of a
 * `req.url` that already has them, so a `key`/`cost` that reads `new URL(request.url)` throws and
 * the request is answered 500.
 */
describe('request.url of an absolute-form request line (node:http and Express)', () => {
  /** Sends `GET http://<host>/p?q=1` over a raw socket; resolves the status code. */
  function absoluteForm(url: string): Promise<number> {
    const { host, port } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () =>
        socket.end(`GET http://${host}/p?q=1 HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`),
      );
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk;
      });
      socket.on('error', reject);
      socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1])));
    });
  }

  const seen = () => {
    const urls: string[] = [];
    const limiter = rateLimit({
      clock: new ManualClock(),
      key: (request: LimitRequest) => {
        urls.push(request.url);
        return `path:${new URL(request.url).pathname}`;
      },
    });
    return { urls, limiter };
  };

  it('nodeRateLimit passes the request’s own absolute URL', async () => {
    const { urls, limiter } = seen();
    const server = await listen(nodeRateLimit(limiter, (_req, res) => res.end('ok')));
    try {
      const status = await absoluteForm(server.url);
      expect(urls).toEqual([`${server.url}/p?q=1`]);
      expect(status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('expressRateLimit passes the request’s own absolute URL', async () => {
    const { urls, limiter } = seen();
    const app = express();
    app.use(expressRateLimit(limiter));
    app.get('/p', (_req, res) => {
      res.send('ok');
    });
    const server = await listen(app.listen(0, '127.0.0.1'));
    try {
      const status = await absoluteForm(server.url);
      expect(urls).toEqual([`${server.url}/p?q=1`]);
      expect(status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
