/**
 * `headway batch` resumed from `--out`: the progress line's "rate so far" (README, Batch jobs,
 * Progress) is this run's rate. The lines an earlier run recorded are counted as done, but not as
 * sent in this run's first second.
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
  dir = await mkdtemp(join(tmpdir(), 'headway-batch-resume-rate-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('headway batch progress on resume', () => {
  it('1,000 lines done before, 3 left at 2/s (burst 1): the rate shown is at most 3/s, not ~1,000/s', async () => {
    const server = await startServer({ rate: 100, burst: 100 });
    try {
      const input = join(dir, 'urls.txt');
      const out = join(dir, 'results.ndjson');
      const urls = Array.from({ length: 1003 }, (_, i) => `${server.url}/items/${i + 1}`);
      await writeFile(input, `${urls.join('\n')}\n`);
      const earlier = urls.slice(0, 1000).map((url, i) =>
        JSON.stringify({
          line: i + 1,
          method: 'GET',
          url,
          status: 200,
          attempts: 1,
          waitedMs: 0,
          error: null,
        }),
      );
      await writeFile(out, `${earlier.join('\n')}\n`);

      const child = spawn(
        process.execPath,
        ['--import', 'tsx', 'src/cli/main.ts', 'batch', input, '--out', out, '--rate', '2', '--burst', '1'],
        { stdio: ['ignore', 'ignore', 'pipe'] },
      );
      let stderr = '';
      child.stderr.on('data', (chunk) => {
        stderr += chunk;
      });
      const [code] = (await once(child, 'exit')) as [number | null];
      expect(code, stderr).toBe(0);
      // The last progress line (stderr is not a terminal: plain lines), e.g. "… 1003/1003 | 2.7/s | …".
      const last = stderr
        .split('\n')
        .filter((l) => l.includes('1003/1003'))
        .at(-1);
      const speed = Number(/\| ([\d.]+)\/s \|/.exec(last ?? '')?.[1]);
      // 3 requests paced at 2/s with a burst of 1 take ≥ 1 s: this run's rate is ≤ 3/s.
      expect(speed).toBeLessThanOrEqual(3);
    } finally {
      await server.close();
    }
  }, 30_000);
});
