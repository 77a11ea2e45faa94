/**
 * `npx headway --help` and `headway <command> --help`, the first thing a new user types: the usage
 * is printed and the command exits 0 (GNU/POSIX convention, and what `node`, `npm`, `npx` do). Today
 * `--help` is an "Unknown option" usage error with exit 2, and `headway batch --help` even
 * suggests passing `--help` as a positional after `--` (i.e. as the input file).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';

/** Runs `headway <args>`; a child still running after `limitMs` is killed (then `code` is null). */
async function run(args: string[], limitMs: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
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
  const killer = setTimeout(() => child.kill('SIGKILL'), limitMs);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(killer);
  return { code, stdout, stderr };
}

describe('headway --help', () => {
  it('headway --help prints the usage of every command and exits 0', async () => {
    const result = await run(['--help'], 15_000);
    expect(result.stdout + result.stderr).toContain('usage: headway serve');
    expect(result.code).toBe(0);
  }, 30_000);

  for (const command of ['serve', 'batch', 'demo']) {
    it(`headway ${command} --help prints its usage and exits 0, no "Unknown option"`, async () => {
      const result = await run([command, '--help'], 15_000);
      expect(result.stderr).not.toContain("Unknown option '--help'");
      expect(result.stdout + result.stderr).toContain(`usage: headway ${command}`);
      expect(result.code).toBe(0);
    }, 30_000);
  }
});
