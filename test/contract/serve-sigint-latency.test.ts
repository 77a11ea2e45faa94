/**
 * `headway serve --latency-ms N` "stops cleanly on SIGINT/SIGTERM" (README, `headway serve`): with
 * an answer still being delayed, SIGINT closes the connections, and the process must exit then,
 * not N ms later.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';

/** Far beyond the bound below: a process that waits for it has not stopped on SIGINT. */
const LATENCY_MS = 120_000;
/** A loose bound for a process to exit after SIGINT on a loaded host. */
const EXIT_WITHIN_MS = 10_000;

describe('headway serve --latency-ms, SIGINT with an answer in its delay', () => {
  it('exits 0 soon after SIGINT, not after the latency', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--port', '0', '--latency-ms', String(LATENCY_MS)],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const exited = once(child, 'exit') as Promise<[number | null, string | null]>;
    try {
      const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
      const url = line.match(/listening on (\S+)$/)?.[1];
      expect(url, line).toBeDefined();
      const answered = fetch(url!).then(
        (r) => r.status,
        () => 'connection closed',
      );
      // The request is admitted once its count is logged (stderr, once a second): it is in its delay.
      let stderr = '';
      child.stderr.on('data', (chunk) => {
        stderr += chunk;
      });
      while (!/allowed=1/.test(stderr)) await once(child.stderr, 'data');
      child.kill('SIGINT');
      expect(await answered).toBe('connection closed');
      let timer: ReturnType<typeof setTimeout> | undefined;
      const outcome = await Promise.race([
        exited.then(([code]) => ({ code })),
        new Promise<'still running'>((resolve) => {
          timer = setTimeout(() => resolve('still running'), EXIT_WITHIN_MS);
        }),
      ]);
      clearTimeout(timer);
      expect(outcome).toEqual({ code: 0 });
    } finally {
      child.kill('SIGKILL');
    }
  }, 30_000);
});
