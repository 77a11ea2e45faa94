/**
 * The reference limiter on a plain node:http server, in observe mode first (refuses nothing,
 * counts what it would refuse), then enforcing. Run: `node --import tsx examples/server.ts`
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { nodeRateLimit, rateLimit } from '../src/server/index.js';

for (const mode of ['observe', 'enforce'] as const) {
  // 3 per minute (a unit back every 20 s), so the six requests see the same answers at any speed.
  const limiter = rateLimit({ policy: { rate: 0.05, burst: 3 }, headers: 'ietf', mode });
  const server = createServer(
    nodeRateLimit(limiter, (_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end('{"ok":true}');
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) {
    const res = await fetch(url);
    statuses.push(res.status);
    if (i === 5)
      console.log(
        `  last response headers: RateLimit-Policy ${res.headers.get('ratelimit-policy')}, RateLimit ${res.headers.get('ratelimit')}, Retry-After ${res.headers.get('retry-after')}`,
      );
    await res.arrayBuffer();
  }
  const m = limiter.metrics();
  console.log(
    `${mode}: statuses ${statuses.join(' ')}; allowed ${m.allowed}, refused ${m.refused}, would refuse ${m.wouldRefuse}`,
  );
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}
