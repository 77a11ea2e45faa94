import { serve } from '@hono/node-server';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { fetchRateLimit, withRateLimit } from '../../src/server/adapters/fetch.js';
import { nodeRateLimit } from '../../src/server/adapters/node.js';
import { rateLimit } from '../../src/server/rate-limit.js';
import { listen } from './loopback.js';

/**
 * README (Server): "a header of the same name the handler sets itself wins", and in the `ietf`
 * dialect the `RateLimit` / `RateLimit-Policy` items "join … one item per policy name"; the Hono
 * adapter's TSDoc: "Each field the response lacks goes on it (a handler's own of the same name
 * wins), and the lists join the handler's". So it goes on `node:http`, Express, Hono, and for
 * `withRateLimit` itself under `@hono/node-server`.
 *
 * A gateway route passes on its upstream's rate-limit fields (`RateLimit-Policy:
 * "upstream";q=100;w=60`, GitHub's `X-RateLimit-Limit`). Outside `@hono/node-server` (Bun, Deno,
 * workers, a test calling the handler) `withRateLimit` and `fetchRateLimit().decorate` overwrite
 * them with `Headers#set`: the upstream window is dropped from the answer, so the same app answers
 * differently depending on the runtime it is served by.
 *
 * Fixed on 2026-12-06 (the fifth review round): the fetch adapters follow the rule of the others: a
 * field the response lacks is added, the name lists and IETF lists join, any other field the
 * handler set wins. What the text above describes is how it behaved before.
 */
const limiter = (headers: 'ietf' | 'x-ratelimit') =>
  rateLimit({ headers, policy: { rate: 1, burst: 2 }, clock: new ManualClock() });
const upstream = {
  ietf: { 'RateLimit-Policy': '"upstream";q=100;w=60', RateLimit: '"upstream";r=5;t=30' },
  'x-ratelimit': { 'X-RateLimit-Limit': '100', 'X-RateLimit-Remaining': '5' },
} as const;
const gateway = (headers: 'ietf' | 'x-ratelimit') => () =>
  new Response('from upstream', { headers: upstream[headers] });

describe('a fetch handler that answers with rate-limit fields of its own', () => {
  it('control: nodeRateLimit and withRateLimit under @hono/node-server keep the handler’s fields', async () => {
    const node = await listen(
      nodeRateLimit(limiter('ietf'), (_req, res) => res.writeHead(200, upstream.ietf).end('x')),
    );
    const onNodeServer = await new Promise<{ url: string; close: () => Promise<void> }>((resolve) => {
      const server = serve(
        {
          // biome-ignore lint/suspicious/noExplicitAny: the env type differs between Hono and withRateLimit
          fetch: withRateLimit(limiter('ietf'), gateway('ietf')) as (request: Request, env: any) => Response,
          port: 0,
          hostname: '127.0.0.1',
        },
        (info) =>
          resolve({
            url: `http://127.0.0.1:${info.port}`,
            close: () => new Promise<void>((done) => server.close(() => done())),
          }),
      );
    });
    try {
      for (const url of [node.url, onNodeServer.url]) {
        const response = await fetch(url);
        await response.text();
        expect(response.headers.get('ratelimit-policy')).toBe('"upstream";q=100;w=60, "default";q=2;w=2');
        expect(response.headers.get('ratelimit')).toBe('"upstream";r=5;t=30, "default";r=1;t=1');
      }
    } finally {
      await node.close();
      await onNodeServer.close();
    }
  });

  it('withRateLimit (ietf): the upstream items stay beside the limiter’s', async () => {
    const response = await withRateLimit(limiter('ietf'), gateway('ietf'))(new Request('http://api.test/'));
    expect(response.headers.get('ratelimit-policy')).toBe('"upstream";q=100;w=60, "default";q=2;w=2');
    expect(response.headers.get('ratelimit')).toBe('"upstream";r=5;t=30, "default";r=1;t=1');
  });

  it('withRateLimit (x-ratelimit): the handler’s own X-RateLimit-Limit wins', async () => {
    const response = await withRateLimit(
      limiter('x-ratelimit'),
      gateway('x-ratelimit'),
    )(new Request('http://api.test/'));
    expect(response.headers.get('x-ratelimit-limit')).toBe('100');
  });

  it('fetchRateLimit().decorate (ietf): the upstream items stay beside the limiter’s', async () => {
    const guard = fetchRateLimit(limiter('ietf'));
    const request = new Request('http://api.test/');
    expect(await guard(request)).toBeUndefined();
    const response = guard.decorate(request, gateway('ietf')());
    expect(response.headers.get('ratelimit')).toBe('"upstream";r=5;t=30, "default";r=1;t=1');
  });
});
