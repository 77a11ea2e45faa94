/** A node:http server of S6 on 127.0.0.1, port 0, counting what it answered. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BenchServer } from './http-run.js';

/**
 * Counts every answer of `server` by status (429 = refused, anything else = allowed) and listens
 * on a free loopback port. `close` stops listening and drops open connections.
 */
export async function listenCounted(server: Server): Promise<BenchServer> {
  let allowed = 0;
  let refused = 0;
  server.on('request', (_req, res) => {
    res.once('finish', () => {
      if (res.statusCode === 429) refused++;
      else allowed++;
    });
  });
  if (!server.listening)
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    metrics: () => ({ allowed, refused }),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
