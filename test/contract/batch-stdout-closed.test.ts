/**
 * `headway batch` writing results to stdout (no `--out`) when the reader goes away
 * (`headway batch urls.txt | head -1`): the write error is handled like one on `--out` (close()
 * fails, exit 2 with a message), not an unhandled 'error' event whose exit code 1 claims "done".
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../src/server/index.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'headway-batch-epipe-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('headway batch, stdout closed by its reader', () => {
  it('exits 2 with a headway message, not an unhandled EPIPE crash', async () => {
    const server = await startServer({ rate: 10_000, burst: 10_000 });
    try {
      const input = join(dir, 'urls.txt');
      const urls = Array.from({ length: 20 }, (_, i) => `${server.url}/items/${i + 1}`);
      await writeFile(input, `${urls.join('\n')}\n`);
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'batch', input], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout.destroy(); // the reader is gone before the first result
      let stderr = '';
      child.stderr.on('data', (chunk) => {
        stderr += chunk;
      });
      const [code] = (await once(child, 'exit')) as [number | null];
      expect(stderr).not.toContain("Unhandled 'error' event");
      expect(stderr).toMatch(/headway batch: .*EPIPE/);
      expect(code).toBe(2);
    } finally {
      await server.close();
    }
  }, 30_000);
});
