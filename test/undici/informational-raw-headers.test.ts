/**
 * `src/undici/interceptor.ts`: 1xx answers are "informational, not an answer: the caller sees it",
 * and `PacedCall.rawHeaders` is "the delivered attempt's raw header list (… `responseHeaders:
 * 'raw'` reads it), as undici's own retry controller forwards it". README, "Pace code you don't
 * own": the interceptor goes into `undici.request` unchanged. Without the interceptor,
 * `undici.request(url, { responseHeaders: 'raw', onInfo })` hands `onInfo` a 103 Early Hints' raw
 * header list (`['Link', '</style.css>; rel=preload']`).
 *
 * The 1xx comes before any attempt is delivered: its raw header list is read from the attempt it
 * came on (read from the call's, it was `null`, and `onInfo` got an empty list: the hint was lost).
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

describe("headwayInterceptor: a 1xx with responseHeaders: 'raw'", () => {
  it("onInfo gets the 103's raw header list, as without the interceptor", async () => {
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
