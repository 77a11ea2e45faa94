/**
 * `headway batch --redis URL` when nothing listens at URL: a usage/input error (exit 2, naming
 * Redis), not a process that never ends.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'headway-batch-redis-down-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/**
 * A loopback port nothing listens on: port 1 (tcpmux), as `cli-usage-exit.test.ts` uses. A port
 * taken on port 0 and released lies in the ephemeral range, which every outgoing connection draws
 * its local port from: until the child (started through tsx, a second or two) connects, another
 * process may listen there, and the child's own connection may be given that very port as its local
 * one (a TCP self-connect: its commands come back to it as replies).
 */
const CLOSED_PORT = 1;

describe('headway batch --redis, Redis down', () => {
  it('exits 2 with a message, instead of reconnecting forever', async () => {
    const input = join(dir, 'urls.txt');
    await writeFile(input, 'http://127.0.0.1:9/a\n');
    const url = `redis://127.0.0.1:${CLOSED_PORT}`;
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/cli/main.ts', 'batch', input, '--rate', '5', '--redis', url],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const exited = once(child, 'exit').then(([code]) => code as number | null);
    // A loose bound: the connection is refused at once; a CLI that is still running after 15 s hangs.
    const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    const code = await exited;
    clearTimeout(killer);
    expect(code).toBe(2);
    expect(stderr).not.toContain('Unhandled error event');
  }, 30_000);
});
