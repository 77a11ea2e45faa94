/**
 * undici hands a handler each informational (1xx) answer before the final one, through
 * `onResponseStart` with a status below 200; `undici.request` reports them to its `onInfo` option
 * (103 Early Hints, 102 Processing). They are not answers the engine judges, but the caller's
 * handler must still see them, as it does without the interceptor. Real server on 127.0.0.1.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { headwayInterceptor } from '../../src/undici/index.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('headwayInterceptor: informational answers', () => {
  it("a 103 Early Hints before the 200 reaches undici.request's onInfo, and the 200 is the answer", async () => {
    const server = createServer((_req, res) => {
      res.writeEarlyHints({ link: '</style.css>; rel=preload' });
      res.writeHead(200).end('ok');
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    cleanups.push(() => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const agent = new Agent();
    cleanups.push(() => agent.close());
    const dispatcher = agent.compose(headwayInterceptor());
    const infos: Array<{ statusCode: number; link: unknown }> = [];
    const response = await request(url, {
      dispatcher,
      onInfo: ({ statusCode, headers }) => infos.push({ statusCode, link: headers.link }),
    });
    expect([response.statusCode, await response.body.text()]).toEqual([200, 'ok']);
    expect(infos).toEqual([{ statusCode: 103, link: '</style.css>; rel=preload' }]);
  });
});
