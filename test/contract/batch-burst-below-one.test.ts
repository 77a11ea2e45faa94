/**
 * `headway batch --burst 0.5`: no request fits a bucket smaller than one request, so the flag is a
 * bad flag (exit 2, naming burst, nothing recorded), like `--burst 0`, not a run in which every
 * line is recorded as failed with an error about a `cost` nobody set, which a corrected re-run
 * then skips as already done.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../src/server/index.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'headway-batch-burst-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('headway batch --burst below one request', () => {
  it('--rate 5 --burst 0.5 is a usage error (exit 2), and --out records nothing', async () => {
    const server = await startServer({ rate: 100, burst: 100 });
    try {
      const input = join(dir, 'urls.txt');
      const out = join(dir, 'results.ndjson');
      await writeFile(input, `${server.url}/a\n${server.url}/b\n`);
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', 'src/cli/main.ts', 'batch', input, '--out', out, '--rate', '5', '--burst', '0.5'],
        { stdio: ['ignore', 'ignore', 'pipe'] },
      );
      let stderr = '';
      child.stderr.on('data', (chunk) => {
        stderr += chunk;
      });
      const [code] = (await once(child, 'exit')) as [number | null];
      const recorded = await readFile(out, 'utf8').catch(() => '');
      expect(code).toBe(2);
      expect(stderr).toMatch(/burst/);
      expect(recorded).toBe('');
    } finally {
      await server.close();
    }
  }, 30_000);
});
