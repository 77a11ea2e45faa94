/**
 * A bad flag value of `headway serve` / `headway batch` is refused with exit 2 and a message that
 * names the flag the user typed. These messages name an internal option instead (`policy.windowMs`,
 * `maxRetryAfterMs`, `latencyMs`), which no flag, `--help` text or README table of the CLI
 * mentions: the user cannot tell which of their flags is wrong.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'headway-cli-flag-names-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Runs `headway <args>`; a child still running after `limitMs` is killed (then `code` is null). */
async function run(args: string[], limitMs: number): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const killer = setTimeout(() => child.kill('SIGKILL'), limitMs);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(killer);
  return { code, stderr };
}

/** The error line (the first stderr line; the usage follows it). */
const firstLine = (stderr: string) => stderr.split('\n')[0] ?? '';

describe('CLI flag errors name the flag', () => {
  it('headway serve --algorithm sliding-log --burst 10 --window-ms 0: the error names --window-ms', async () => {
    const result = await run(
      ['serve', '--algorithm', 'sliding-log', '--burst', '10', '--window-ms', '0'],
      15_000,
    );
    expect(result.code).toBe(2);
    expect(firstLine(result.stderr)).toContain('--window-ms');
  }, 30_000);

  it('headway serve --latency-ms=-1: the error names --latency-ms', async () => {
    const result = await run(['serve', '--latency-ms=-1'], 15_000);
    expect(result.code).toBe(2);
    expect(firstLine(result.stderr)).toContain('--latency-ms');
  }, 30_000);

  it('headway batch --max-retry-after=-1: the error names --max-retry-after', async () => {
    const input = join(dir, 'urls.txt');
    await writeFile(input, 'http://127.0.0.1:1/a\n');
    const result = await run(['batch', input, '--max-retry-after=-1'], 15_000);
    expect(result.code).toBe(2);
    expect(firstLine(result.stderr)).toContain('--max-retry-after');
  }, 30_000);
});
