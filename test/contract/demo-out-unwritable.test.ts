/**
 * `headway demo --out PATH` where the report cannot be written (PATH is a directory): the demo
 * runs its whole job (about 6 s), then fails at the write, and the summary table it measured is
 * never printed (command.ts writes the report before printing the summary). `headway batch`
 * opens its results file "before anything is sent"; the demo must likewise either refuse the path
 * before it runs, or still print what it measured: a run is never silently thrown away.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'headway-demo-out-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('headway demo --out that cannot be written', () => {
  it('is refused before the run, or the measured summary is still printed', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'demo', '--out', dir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const killer = setTimeout(() => child.kill('SIGKILL'), 50_000);
    const [code] = (await once(child, 'exit')) as [number | null];
    clearTimeout(killer);
    expect(stderr).toMatch(/^headway demo: .*EISDIR/m);
    expect(code).toBe(2);
    const ran = /^t=\d/m.test(stdout);
    const summarized = stdout.includes('429 share');
    expect({ ran, summarized: ran && summarized }).toEqual({ ran, summarized: ran });
  }, 60_000);
});
