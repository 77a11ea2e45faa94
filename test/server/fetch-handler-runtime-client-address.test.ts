import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { withRateLimit } from '../../src/server/adapters/fetch.js';
import { rateLimit } from '../../src/server/rate-limit.js';
import type { ClientInfo } from '../../src/server/request.js';

/**
 * README (node:http section): "Fetch handlers (Bun, Deno, workers): `withRateLimit(limiter, handler)`",
 * and the default key is "the client IP as `ip:<address>`". A fetch handler served as the README shows
 * gets its runtime's own second argument, not a `{ ip }`: Deno's `ServeHandlerInfo`
 * (`Deno.serve(handler)`: `{ remoteAddr: { hostname, port, transport } }`) and Bun's `Server`
 * (`Bun.serve({ fetch })`: `server.requestIP(request)`). `withRateLimit` reads an address only from
 * `{ ip }` or `@hono/node-server`'s `{ incoming }`; on Deno and Bun every client is keyed
 * `ip:unknown`, so all of them share one quota and one client's burst refuses everyone.
 */
const runtimes: Array<[string, (address: string) => unknown]> = [
  [
    'Deno.serve (ServeHandlerInfo)',
    (hostname) => ({ remoteAddr: { transport: 'tcp', hostname, port: 50_000 } }),
  ],
  [
    'Bun.serve (Server.requestIP)',
    (address) => ({ requestIP: () => ({ address, family: 'IPv4', port: 50_000 }) }),
  ],
];

describe('withRateLimit served as the README says on Deno and Bun', () => {
  it.each(runtimes)('%s: two clients get a quota each', async (_runtime, infoOf) => {
    const limiter = rateLimit({ policy: { rate: 1, burst: 1 }, clock: new ManualClock() });
    const handler = withRateLimit(limiter, () => new Response('ok'));
    const call = (address: string) =>
      handler(new Request('http://api.test/items'), infoOf(address) as ClientInfo);
    const first = await call('192.0.2.1');
    const second = await call('192.0.2.2');
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(
      limiter
        .metrics()
        .keys.map((k) => k.key)
        .sort(),
    ).toEqual(['ip:192.0.2.1', 'ip:192.0.2.2']);
  });
});
