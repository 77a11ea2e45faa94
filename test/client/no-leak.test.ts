import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runTsChild } from '../support/run-child.js';

const child = fileURLToPath(new URL('./fixtures/settle-and-exit.ts', import.meta.url));

describe('timers', () => {
  it('every call settles and no timer keeps the process alive afterwards', async () => {
    const started = Date.now();
    const { code, stdout, stderr } = await runTsChild(child, 20_000);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual(['ok', 200, 'TimeoutError', 'AbortError', 200]);
    // A leaked 60 s timeout or a 120 s deadline timer would hold the process far longer.
    expect(Date.now() - started).toBeLessThan(15_000);
  }, 30_000);
});
