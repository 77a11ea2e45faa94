/** Runs a TypeScript file in a child Node process (through tsx) and collects what it printed. */
import { spawn } from 'node:child_process';

/** Exit code, stdout and stderr of a finished child. */
export interface ChildResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `file` (with `args`) with `node --import tsx`; kills it after `limitMs` (then `code` is null).
 * `env` is added to this process's environment for the child.
 */
export async function runTsChild(
  file: string,
  limitMs: number,
  args: readonly string[] = [],
  env: NodeJS.ProcessEnv = {},
): Promise<ChildResult> {
  const child = spawn(process.execPath, ['--import', 'tsx', file, ...args], {
    env: { ...process.env, ...env },
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
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearTimeout(killer);
  return { code, stdout, stderr };
}

/** Runs `headway <args>` from the source (`src/cli/main.ts`); kills it after `limitMs`. */
export function runHeadway(args: readonly string[], limitMs: number): Promise<ChildResult> {
  return runTsChild('src/cli/main.ts', limitMs, args);
}
