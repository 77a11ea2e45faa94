/**
 * The caller's handler gets the context undici hands the attempt. undici's redirect interceptor
 * threads the URLs it followed through `onRequestStart`'s context (`context.history`), and its cache
 * interceptor reads them there to refuse storing a response a cross-origin redirect produced under
 * the original URL's key (GHSA-75VM-9G8F-99J4 and siblings); `compose` only allows the cache after
 * the redirect for that reason. With Headway composed between the two, the context must still
 * reach the cache. Real servers on 127.0.0.1; no timing.
 */
import type { RequestListener } from 'node:http';
import { Agent, interceptors, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { headwayInterceptor } from '../../src/undici/index.js';
import { listen } from '../server/loopback.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serve(listener: RequestListener): Promise<string> {
  const server = await listen(listener);
  cleanups.push(server.close);
  return server.url;
}

describe('headwayInterceptor between undici’s redirect and cache interceptors', () => {
  it('a response reached through a cross-origin redirect is not cached under the original URL', async () => {
    const other = await serve((_req, res) =>
      res.writeHead(200, { 'cache-control': 'public, max-age=3600' }).end('from the other origin'),
    );
    let trustedHits = 0;
    const trusted = await serve((_req, res) => {
      trustedHits++;
      res.writeHead(302, { location: `${other}/payload` }).end();
    });
    const agent = new Agent();
    cleanups.push(() => agent.close());
    const dispatcher = agent.compose(
      interceptors.redirect({ maxRedirections: 2 }),
      headwayInterceptor(),
      interceptors.cache(),
    );
    for (let i = 0; i < 2; i++) {
      const response = await request(`${trusted}/item`, { dispatcher });
      expect(await response.body.text()).toBe('from the other origin');
    }
    // Without Headway in between, the cache sees the cross-origin hop and stores nothing: 2 hits.
    expect(trustedHits).toBe(2);
  });
});
