/**
 * README, "Pace code you don't own": `hosts` is "by host name ('api.github.com') or host:port", and
 * Headway is listed after undici's `interceptors.dns()` (`agent.compose(dns, paced)`: undici runs
 * the last listed first), so it sees the host name the caller asked for. Listed before it, Headway
 * sees the address the dns interceptor dialled (it rewrites the dispatch's `origin`, keeping the
 * name in a `host` header): its key and `hosts` entry are the address's, as the README says.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, interceptors, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/manual-clock.js';
import { headwayInterceptor } from '../../src/undici/index.js';
import { runUntilSettled } from '../client/fake-server.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('headwayInterceptor beside undici’s dns interceptor', () => {
  it.each([
    ['after it (the README’s order): keyed and paced by the host name', 'after', 'api.test', 1_000],
    ['before it: keyed by the dialled address, the name’s `hosts` entry unused', 'before', '127.0.0.1', 0],
  ] as const)('listed %s', async (_name, order, keyHost, apartMs) => {
    const hosts: string[] = [];
    const server = createServer((req, res) => {
      hosts.push(req.headers.host ?? '');
      res.writeHead(200).end('ok');
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const port = (server.address() as AddressInfo).port;

    const clock = new ManualClock(0, Date.UTC(2026, 10, 30));
    const interceptor = headwayInterceptor({
      clock,
      random: () => 0,
      hosts: { 'api.test': { rate: 1, burst: 1 } },
    });
    const dns = interceptors.dns({
      dualStack: false,
      affinity: 4,
      lookup: (_origin, _options, callback) =>
        callback(null, [{ address: '127.0.0.1', family: 4, ttl: 60_000 }]),
    });
    const agent = new Agent();
    cleanups.push(() => agent.close());
    const dispatcher = order === 'after' ? agent.compose(dns, interceptor) : agent.compose(interceptor, dns);

    const answeredAt: number[] = [];
    const call = () =>
      request(`http://api.test:${port}/items`, { dispatcher }).then(async (r) => {
        answeredAt.push(clock.now());
        return r.body.text();
      });
    const results = await runUntilSettled(clock, [call(), call()], 50, 5_000);

    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
    expect(hosts).toEqual([`api.test:${port}`, `api.test:${port}`]);
    expect(interceptor.stats().map((s) => s.key)).toEqual([`http://${keyHost}:${port}`]);
    const apart = (answeredAt[1] ?? 0) - (answeredAt[0] ?? 0);
    // 1 s apart under the name's 1/s entry; within one 50 ms step of each other without it.
    if (apartMs > 0) expect(apart).toBeGreaterThanOrEqual(apartMs);
    else expect(apart).toBeLessThan(1_000);
  });
});
