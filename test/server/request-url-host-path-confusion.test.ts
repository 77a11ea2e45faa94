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
 * README (Options, `key`): "`request.url` is absolute in every adapter"; `NodeRequest`
 * (src/server/node-request.ts): "Its `url` is absolute, as a Web `Request`'s (the scheme of the
 * socket, the `Host`, …)", and request-url.test.ts: "one `cost`/`key` works behind every adapter
 * (e.g. `new URL(request.url).pathname`)". The node and Express adapters paste the client's `Host`
 * header in front of the path unchecked, so a `Host` holding `?` or `#` (or `/`) moves the real
 * path out of `pathname`: a client requesting `/login` makes a path-based `policyFor` (or `key`,
 * `cost`) see `/`, and escapes the stricter limit. `@hono/node-server` rejects such a `Host`
 * ("Invalid host header"); a Web `Request` for `/login` always has pathname `/login`.
 */
describe('a forged Host header cannot move request.url off the requested path', () => {
  /** Sends `GET /login` with the given `Host` over a raw socket; resolves the status code. */
  function getLogin(url: string, host: string): Promise<number> {
    const { port } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () =>
        socket.end(`GET /login HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`),
      );
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk;
      });
      socket.on('error', reject);
      socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1])));
    });
  }

  /** One login attempt per client, anything else 100: the usual per-route tier. */
  const limited = () => {
    const paths: string[] = [];
    const limiter = rateLimit({
      clock: new ManualClock(),
      policyFor: (_key: string, request: LimitRequest) => {
        const { pathname } = new URL(request.url);
        paths.push(pathname);
        return pathname === '/login' ? { name: 'login', limit: 1 } : { name: 'default', limit: 100 };
      },
    });
    return { paths, limiter };
  };

  it('nodeRateLimit: /login is /login whatever the Host says', async () => {
    const { paths, limiter } = limited();
    const server = await listen(nodeRateLimit(limiter, (_req, res) => res.end('ok')));
    try {
      const statuses = [];
      for (const host of ['127.0.0.1', 'a?', 'b#']) statuses.push(await getLogin(server.url, host));
      expect(new Set(paths)).toEqual(new Set(['/login']));
      expect(statuses.map((status) => status === 200)).toEqual([true, false, false]);
    } finally {
      await server.close();
    }
  });

  it('expressRateLimit: /login is /login whatever the Host says', async () => {
    const { paths, limiter } = limited();
    const app = express();
    app.use(expressRateLimit(limiter));
    app.get('/login', (_req, res) => {
      res.send('ok');
    });
    const server = await listen(app.listen(0, '127.0.0.1'));
    try {
      const statuses = [];
      for (const host of ['127.0.0.1', 'a?', 'b#']) statuses.push(await getLogin(server.url, host));
      expect(new Set(paths)).toEqual(new Set(['/login']));
      expect(statuses.map((status) => status === 200)).toEqual([true, false, false]);
    } finally {
      await server.close();
    }
  });
});
