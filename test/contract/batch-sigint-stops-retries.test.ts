/**
 * README, Batch jobs, Stopping: "The first SIGINT or SIGTERM stops sending: requests not sent yet
 * are dropped (they run on resume), those already sent finish and are written". A request whose
 * attempt was answered 429 and that waits out the `Retry-After` (the `batch` profile waits up to
 * 15 min) is waiting to be sent again: the first signal drops it too. (It was not stopped: Ctrl-C
 * hung for the whole `Retry-After`, here 10 min, then sent the retry.)
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'headway-batch-sigint-retry-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('headway batch, SIGINT while a request waits out a Retry-After', () => {
  it('stops (exit 130) without sending the retry, instead of waiting 10 minutes to send it', async () => {
    let requests = 0;
    let refused!: () => void;
    const answered429 = new Promise<void>((resolve) => {
      refused = resolve;
    });
    const http = createServer((_request, response) => {
      requests++;
      if (requests === 1) {
        response.writeHead(429, { 'retry-after': '600' });
        response.end('slow down', refused);
      } else response.end('ok');
    });
    http.listen(0, '127.0.0.1');
    await once(http, 'listening');
    try {
      const { port } = http.address() as { port: number };
      const input = join(dir, 'urls.txt');
      const out = join(dir, 'out.ndjson');
      await writeFile(input, `http://127.0.0.1:${port}/a\n`);
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', 'src/cli/main.ts', 'batch', input, '--out', out],
        { stdio: ['ignore', 'ignore', 'pipe'] },
      );
      let stderr = '';
      child.stderr.on('data', (chunk) => {
        stderr += chunk;
      });
      const exited = once(child, 'exit').then(([code]) => code as number | null);
      await answered429; // the signal handlers are installed before anything is sent
      child.kill('SIGINT');
      // A loose bound: nothing is in flight; a CLI still running 15 s after the signal does not stop.
      const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const code = await exited;
      clearTimeout(killer);
      expect(code, stderr.slice(-200)).toBe(130);
      expect(requests).toBe(1);
    } finally {
      http.closeAllConnections();
      http.close();
    }
  }, 30_000);
});
