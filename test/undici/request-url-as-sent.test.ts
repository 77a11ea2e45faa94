/**
 * README, "Client options": `key` — "which quota a request belongs to (`req` = `{ url, method,
 * headers, body }`)", and `headwayInterceptor` takes "createFetch's options". undici's dispatch
 * options carry the query apart from the path (`query`: "Query string params to be embedded in the
 * request URL", `undici.request(url, { query })`), and undici's core sends `path?query`.
 *
 * So `req.url` is the origin, the path as written and the query: a `key` (or `cost`) that reads the
 * query — a per-tenant or per-API-key quota, say — sees it (built from `origin` and `path` alone,
 * every such call landed in one key), and a path that starts with `//`
 * (`http://127.0.0.1:<port>//v1/items`, sent as is) stays on the origin's host (resolved as a
 * reference, it read as the host `v1`, and the real host's `hosts` entry never paced it).
 */

import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { headwayInterceptor } from '../../src/undici/index.js';
import { runUntilSettled } from '../client/fake-server.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('headwayInterceptor: req.url is the URL undici sends', () => {
  it('key(req) sees the URL that is sent, query included', async () => {
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(req.url ?? '');
      res.writeHead(200).end('ok');
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const keyedUrls: string[] = [];
    const interceptor = headwayInterceptor({
      clock: new ManualClock(0, Date.UTC(2026, 10, 30)),
      key: (req) => {
        keyedUrls.push(req.url.pathname + req.url.search);
        return `tenant:${req.url.searchParams.get('tenant')}`;
      },
    });
    const agent = new Agent();
    cleanups.push(() => agent.close());
    const dispatcher = agent.compose(interceptor);

    for (const tenant of ['a', 'b']) {
      const response = await request(`${url}/items`, { dispatcher, query: { tenant } });
      await response.body.text();
    }

    expect(seen).toEqual(['/items?tenant=a', '/items?tenant=b']);
    expect(keyedUrls).toEqual(['/items?tenant=a', '/items?tenant=b']);
    expect(interceptor.stats().map((s) => s.key)).toEqual(['tenant:a', 'tenant:b']);
  });

  it('a path that starts with `//` stays on the dispatch’s host: its `hosts` entry paces the calls', async () => {
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(`${req.headers.host} ${req.url}`);
      res.writeHead(200).end('ok');
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;

    const clock = new ManualClock(0, Date.UTC(2026, 10, 30));
    const costedUrls: string[] = [];
    const interceptor = headwayInterceptor({
      clock,
      random: () => 0,
      hosts: { [host]: { rate: 1, burst: 1 } },
      cost: (req) => {
        costedUrls.push(req.url.href);
        return 1;
      },
    });
    const agent = new Agent();
    cleanups.push(() => agent.close());
    const dispatcher = agent.compose(interceptor);

    const answeredAt: number[] = [];
    const call = () =>
      request(`http://${host}//v1/items`, { dispatcher }).then(async (r) => {
        answeredAt.push(clock.now());
        return r.body.text();
      });
    const results = await runUntilSettled(clock, [call(), call()], 50, 5_000);

    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
    expect(seen).toEqual([`${host} //v1/items`, `${host} //v1/items`]);
    expect(costedUrls).toEqual([`http://${host}//v1/items`, `http://${host}//v1/items`]);
    expect((answeredAt[1] ?? 0) - (answeredAt[0] ?? 0)).toBeGreaterThanOrEqual(1_000);
  });
});
