/**
 * A proxy-like limiter (S6): a sliding log of `limit` requests per `windowMs` on one key that logs
 * **every** request it sees, refused ones too, so hammering keeps the key shut. It states no
 * counters: a refusal is a bare `429` with `Retry-After: 1` (whatever the real wait), as gateways
 * in front of an API often answer; an admitted request gets `200` and no rate-limit header.
 */
import { createServer } from 'node:http';
import type { BenchServer } from './http-run.js';
import { listenCounted } from './loopback.js';
import type { WindowLimit } from './peer-servers.js';

/** Starts the proxy-like limiter on loopback. */
export function startCountingProxy({ limit, windowMs }: WindowLimit): Promise<BenchServer> {
  const log: number[] = []; // times of the requests within the window, oldest first
  const server = createServer((_req, res) => {
    const now = performance.now();
    while (log.length > 0 && now - log[0]! >= windowMs) log.shift();
    const allowed = log.length < limit;
    log.push(now);
    if (allowed) res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    else res.writeHead(429, { 'retry-after': '1' }).end();
  });
  return listenCounted(server);
}
