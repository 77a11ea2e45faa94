/**
 * `headway demo` (what `npm start` runs) with stdout piped to a reader that goes away
 * (`npm start | head -3`): the README says the view is "plain lines when stdout is not a
 * terminal", and `headway batch` handles the same case (test/contract/batch-stdout-closed.test.ts).
 * The demo must not die of an unhandled EPIPE 'error' event with a stack trace, and the run it
 * measured must still end in its report.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'headway-demo-epipe-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('headway demo, stdout closed by its reader', () => {
  it('no unhandled EPIPE crash with a stack trace; the report is still written', async () => {
    const out = join(dir, 'report.html');
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'demo', '--out', out], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const exited = once(child, 'exit');
    const killer = setTimeout(() => child.kill('SIGKILL'), 50_000);
    // Like `| head -1`: read the first line, then the reader goes away.
    await once(createInterface({ input: child.stdout }), 'line');
    child.stdout.destroy();
    const [code] = (await exited) as [number | null];
    clearTimeout(killer);
    expect(stderr).not.toContain("Unhandled 'error' event");
    expect(code).not.toBe(1);
    await expect(access(out)).resolves.toBeUndefined();
  }, 60_000);
});
