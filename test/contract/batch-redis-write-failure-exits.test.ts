/**
 * README, Batch jobs, exit codes: `2` is "… results that can no longer be written (stdout's reader
 * gone, `… | head`: nothing more is sent)", and `--redis URL` shares the quota through Redis. With
 * `--redis`, once the results can no longer be written the command prints its error and exits 2, as
 * without `--redis` (batch-stdout-closed.test.ts). (It never ended: `writer.close()` rejected in
 * the `finally` of `batch()`, so the Redis connection was never closed and kept the process alive.)
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startServer } from '../../src/server/index.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'headway-batch-redis-epipe-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('headway batch --redis, stdout closed by its reader', () => {
  it('exits 2, instead of hanging on the open Redis connection', async () => {
    const server = await startServer({ rate: 10_000, burst: 10_000 });
    try {
      const input = join(dir, 'urls.txt');
      const urls = Array.from({ length: 20 }, (_, i) => `${server.url}/items/${i + 1}`);
      await writeFile(input, `${urls.join('\n')}\n`);
      const key = `batch-epipe-${process.pid}-${Math.random().toString(36).slice(2)}`;
      const child = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          'src/cli/main.ts',
          'batch',
          input,
          '--rate',
          '1000',
          '--redis',
          inject('redisUrl'),
          '--key',
          key,
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      child.stdout.destroy(); // the reader is gone before the first result
      let stderr = '';
      child.stderr.on('data', (chunk) => {
        stderr += chunk;
      });
      const exited = once(child, 'exit').then(([code]) => code as number | null);
      // A loose bound: the run is 20 requests at 10,000/s; a CLI still running after 15 s never ends.
      const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const code = await exited;
      clearTimeout(killer);
      expect(stderr).toMatch(/headway batch: .*EPIPE/);
      expect(code).toBe(2);
    } finally {
      await server.close();
    }
  }, 30_000);
});
