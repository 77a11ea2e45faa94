/**
 * undici hands a handler each informational (1xx) answer before the final one, through
 * `onResponseStart` with a status below 200; `undici.request` reports them to its `onInfo` option
 * (103 Early Hints, 102 Processing). They are not answers the engine judges, but the caller's
 * handler must still see them, as it does without the interceptor — with `responseHeaders: 'raw'`
 * too, whose raw header list is read from the attempt the 1xx came on (no attempt is delivered yet:
 * read from the call's, it was `null`, and `onInfo` got an empty list). Real server on 127.0.0.1.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, type Dispatcher, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { headwayInterceptor } from '../../src/undici/index.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A server that sends a 103 Early Hints before its 200, and an Agent: closed after the test. */
async function earlyHints(): Promise<{ url: string; agent: Agent }> {
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
  const agent = new Agent();
  cleanups.push(() => agent.close());
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, agent };
}

describe('headwayInterceptor: informational answers', () => {
  it("a 103 Early Hints before the 200 reaches undici.request's onInfo, and the 200 is the answer", async () => {
    const { url, agent } = await earlyHints();
    const dispatcher = agent.compose(headwayInterceptor());
    const infos: Array<{ statusCode: number; link: unknown }> = [];
    const response = await request(url, {
      dispatcher,
      onInfo: ({ statusCode, headers }) => infos.push({ statusCode, link: headers.link }),
    });
    expect([response.statusCode, await response.body.text()]).toEqual([200, 'ok']);
    expect(infos).toEqual([{ statusCode: 103, link: '</style.css>; rel=preload' }]);
  });

  it("with responseHeaders: 'raw', onInfo gets the 103's raw header list, as without the interceptor", async () => {
    const { url, agent } = await earlyHints();
    const infoHeaders = async (dispatcher: Dispatcher) => {
      const infos: unknown[] = [];
      const response = await request(url, {
        dispatcher,
        responseHeaders: 'raw',
        onInfo: ({ statusCode, headers }) =>
          infos.push([statusCode, (headers as unknown as Buffer[]).map(String)]),
      });
      expect([response.statusCode, await response.body.text()]).toEqual([200, 'ok']);
      return infos;
    };
    const without = await infoHeaders(agent);
    expect(without).toEqual([[103, ['Link', '</style.css>; rel=preload']]]);
    expect(await infoHeaders(agent.compose(headwayInterceptor()))).toEqual(without);
  });
});
