/**
 * For the tests of `maxConcurrent` and streamed answers, on 127.0.0.1: an event-stream server, and
 * a way to collect garbage until what a dropped answer holds is freed.
 */
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep, setImmediate as turn } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * `/json` answers `{"ok":true}` at once; `/stream` sends an event-stream head and then, by `after`:
 * nothing (`silent`), one event (`one`), or an event every 20 ms until its client goes
 * (`ticking`). `open`: the streams open now. `cleanups` gets what stops it.
 */
export async function eventStreamServer(
  cleanups: Array<() => unknown>,
  after: 'silent' | 'one' | 'ticking',
): Promise<{ url: string; open: Set<ServerResponse> }> {
  const open = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    if (req.url === '/json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
      return;
    }
    open.add(res);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    if (after === 'silent') res.flushHeaders();
    else res.write('data: {"delta":"hel"}\n\n');
    const ticks =
      after === 'ticking' ? setInterval(() => res.write('data: {"delta":"lo"}\n\n'), 20) : undefined;
    res.on('close', () => {
      clearInterval(ticks);
      open.delete(res);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  cleanups.push(() => {
    server.closeAllConnections();
    server.close();
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, open };
}

/** Collects garbage until `done()` holds, 100 rounds at most (a round: a full collection, then the loop turns and 10 ms pass). */
export async function collectUntil(done: () => boolean): Promise<void> {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  for (let i = 0; i < 100 && !done(); i++) {
    gc();
    await turn();
    await sleep(10);
  }
}
