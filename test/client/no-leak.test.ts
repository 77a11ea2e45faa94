import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const child = fileURLToPath(new URL('./fixtures/settle-and-exit.ts', import.meta.url));

describe('timers', () => {
  it('every call settles and no timer keeps the process alive afterwards', async () => {
    const started = Date.now();
    const proc = spawn(process.execPath, ['--import', 'tsx', child], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    proc.stdout.on('data', (d) => {
      out += d;
    });
    proc.stderr.on('data', (d) => {
      err += d;
    });
    const killer = setTimeout(() => proc.kill('SIGKILL'), 20_000);
    const code = await new Promise<number | null>((resolve) => proc.on('exit', resolve));
    clearTimeout(killer);
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(JSON.parse(out)).toEqual(['ok', 200, 'TimeoutError', 'AbortError', 200]);
    // A leaked 60 s timeout or a 120 s deadline timer would hold the process far longer.
    expect(Date.now() - started).toBeLessThan(15_000);
  }, 30_000);
});
