/**
 * README, Batch jobs: each result's "`waitedMs` [is] the time spent waiting rather than on the
 * network (pacing, gates, backoff)". A request that waits its turn in the pacer and then fails
 * without being sent (a `Retry-After` longer than `--max-retry-after` closes the key meanwhile:
 * `HEADWAY_RATE_LIMITED`, attempts 0) reports the second or so it waited. (It reported 0: the batch
 * counted waiting only when an attempt reached the transport.)
 */
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatchResult } from '../../src/cli/batch-result.js';
import { runHeadway } from '../support/run-child.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'headway-batch-waited-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('headway batch, waitedMs of a request that failed while waiting', () => {
  it('counts the time it waited for its turn before failing unsent', async () => {
    // The first request is answered 200, the second 429 with a Retry-After of 100 s.
    let requests = 0;
    const http = createServer((_request, response) => {
      requests++;
      if (requests === 2) response.writeHead(429, { 'retry-after': '100' });
      response.end(requests === 2 ? 'no' : 'ok');
    });
    http.listen(0, '127.0.0.1');
    await once(http, 'listening');
    try {
      const { port } = http.address() as { port: number };
      const input = join(dir, 'urls.txt');
      const out = join(dir, 'out.ndjson');
      await writeFile(input, [1, 2, 3].map((i) => `http://127.0.0.1:${port}/${i}\n`).join(''));
      // 1/s with a burst of 1: the second request goes ~1 s after the first, the third waits
      // behind it; all three are started at once (concurrency 3).
      const args = ['--out', out, '--rate', '1', '--burst', '1', '--concurrency', '3'];
      const { code, stderr } = await runHeadway(
        ['batch', input, ...args, '--max-retry-after', '10000'],
        25_000,
      );
      expect(code, stderr).toBe(1);
      const results = (await readFile(out, 'utf8'))
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as BatchResult);
      expect(results).toHaveLength(3);
      expect(requests).toBe(2);
      // The request never sent: it started with the others and failed only once the second
      // request's 429 came back, which pacing at 1/s (burst 1) holds for about a second.
      const unsent = results.find((r) => r.attempts === 0);
      expect(unsent?.error?.code).toBe('HEADWAY_RATE_LIMITED');
      expect(unsent?.waitedMs).toBeGreaterThanOrEqual(500);
    } finally {
      http.closeAllConnections();
      http.close();
    }
  }, 30_000);
});
