/**
 * A usage or setup error of `headway serve`, `headway batch` and `headway demo` as a child process:
 * a clear `headway <command>: …` message and exit code 2 — even when the error comes after the
 * command already opened something (a metrics endpoint, a Redis connection, the demo's server),
 * and when the results file cannot be opened.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'headway-cli-exit-'));
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

describe('CLI usage errors exit 2', () => {
  it('headway serve --metrics-port 0 --rate 0: the error is printed and the process exits 2 (the metrics endpoint does not keep it alive)', async () => {
    const result = await run(['serve', '--metrics-port', '0', '--rate', '0'], 15_000);
    expect(result.stderr).toContain('headway serve: Expected `--rate` to be a positive finite number');
    expect(result.code).toBe(2);
  }, 30_000);

  it('headway batch --redis URL --rate 5 --burst 0: the error is printed and the process exits 2 (the Redis connection does not keep it alive)', async () => {
    const input = join(dir, 'urls.txt');
    await writeFile(input, 'http://127.0.0.1:1/a\n');
    const result = await run(
      ['batch', input, '--redis', inject('redisUrl'), '--rate', '5', '--burst', '0'],
      15_000,
    );
    expect(result.stderr).toContain('headway batch: Expected `--burst` to be a positive finite number');
    expect(result.code).toBe(2);
  }, 30_000);

  it('headway batch --out in a missing directory: a clear message and exit 2, not an unhandled stream error and exit 1 ("done, some failed")', async () => {
    const input = join(dir, 'urls.txt');
    await writeFile(input, 'http://127.0.0.1:1/a\n');
    const result = await run(['batch', input, '--out', join(dir, 'no-such-dir', 'results.ndjson')], 15_000);
    expect(result.stderr).not.toContain("Unhandled 'error' event");
    expect(result.stderr).toMatch(/^headway batch: .*ENOENT/m);
    expect(result.code).toBe(2);
  }, 30_000);

  it('headway demo --live --port <taken>: the error is printed and the process exits 2 (the demo server does not keep it alive)', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as { port: number };
    try {
      const result = await run(
        ['demo', '--live', '--port', String(port), '--out', join(dir, 'report.html')],
        25_000,
      );
      expect(result.stderr).toContain('headway demo: listen EADDRINUSE');
      expect(result.code).toBe(2);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  }, 40_000);
});
